import { constants } from "node:fs";
import { dirname, join } from "node:path";
import { isRunnable } from "../../executables.js";
import { installedVersion, locateBinary, packageDir } from "../binary-lookup.js";

const PACKAGE = "@google/gemini-cli";
export const INSTALL_COMMAND = `npm install ${PACKAGE}`;

// The bundle npm installed beside skillgym (a script, so readable is enough: it runs under this Node).
async function bundledScript(): Promise<string | undefined> {
  const dir = packageDir(PACKAGE);
  if (!dir) return undefined;
  const bundled = join(dir, "bundle", "gemini.js");
  return (await isRunnable(bundled, 0, constants.R_OK)) ? bundled : undefined;
}

/** Finds Gemini CLI: an explicit path, then the package npm installed beside skillgym, then `gemini` on PATH. */
export function locateGemini(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  bundled: () => Promise<string | undefined> = bundledScript,
): Promise<string> {
  return locateBinary(explicit, env, {
    label: "Gemini CLI",
    command: "gemini",
    install: INSTALL_COMMAND,
    bundled,
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
