import { constants } from "node:fs";
import { dirname, join } from "node:path";
import { SkillgymError } from "../../errors.js";
import {
  explicitBinary,
  firstRunnable,
  installedVersion,
  isRunnable,
  packageDir,
  pathCandidates,
} from "../binary-lookup.js";

const PACKAGE = "@google/gemini-cli";
export const INSTALL_COMMAND = `npm install ${PACKAGE}`;

/** Finds Gemini CLI: an explicit path, then the package npm installed beside skillgym, then `gemini` on PATH. */
export async function locateGemini(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (explicit) {
    return explicitBinary(
      explicit,
      `pass the path of a Gemini CLI binary to --agent-bin, or install it: ${INSTALL_COMMAND}`,
    );
  }
  const dir = packageDir(PACKAGE);
  if (dir) {
    const bundled = join(dir, "bundle", "gemini.js");
    if (await isRunnable(bundled, 0, constants.R_OK)) return bundled;
  }
  const found = await firstRunnable(pathCandidates("gemini", env));
  if (found) return found;
  throw new SkillgymError("AGENT_UNAVAILABLE", "Gemini CLI was not found", {
    hint: `install it with \`${INSTALL_COMMAND}\`, put \`gemini\` on PATH, or pass --agent-bin`,
  });
}

/** How to start a binary: a JavaScript entry runs under this Node (no `node` needed on the child's PATH). */
export function commandLine(binary: string, args: string[]): { command: string; args: string[] } {
  if (/\.[cm]?js$/.test(binary)) return { command: process.execPath, args: [binary, ...args] };
  return { command: binary, args };
}

/** The version in the package.json of the package a binary belongs to; undefined for any other binary. */
export function geminiVersion(binary: string): Promise<string | undefined> {
  return installedVersion(binary, 3, (pkg) => pkg.name === PACKAGE);
}

/** The folder of the agent's own built-in skills (skill-creator, antigravity-support), when it can be found. */
export function builtinSkillsDir(binary: string): string {
  return join(dirname(binary), "builtin");
}
