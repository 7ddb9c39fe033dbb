import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { SkillgymError } from "../../errors.js";

const require = createRequire(import.meta.url);
const PACKAGE = "@google/gemini-cli";
export const INSTALL_COMMAND = `npm install ${PACKAGE}`;

async function executable(path: string, mode = constants.X_OK): Promise<boolean> {
  try {
    await access(path, process.platform === "win32" ? constants.F_OK : mode);
    return true;
  } catch {
    return false;
  }
}

function packageDir(): string | undefined {
  try {
    return dirname(require.resolve(`${PACKAGE}/package.json`));
  } catch {
    return undefined;
  }
}

function pathCandidates(env: NodeJS.ProcessEnv): string[] {
  const names = process.platform === "win32" ? ["gemini.cmd", "gemini.exe"] : ["gemini"];
  return (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => names.map((name) => join(dir, name)));
}

/** Finds Gemini CLI: an explicit path, then the package npm installed beside skillgym, then `gemini` on PATH. */
export async function locateGemini(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (explicit) {
    if (await executable(explicit, constants.F_OK)) return explicit;
    throw new SkillgymError("AGENT_UNAVAILABLE", `the agent binary ${explicit} does not exist`, {
      hint: `pass the path of a Gemini CLI binary to --agent-bin, or install it: ${INSTALL_COMMAND}`,
    });
  }
  const dir = packageDir();
  if (dir) {
    const bundled = join(dir, "bundle", "gemini.js");
    if (await executable(bundled, constants.R_OK)) return bundled;
  }
  for (const candidate of pathCandidates(env)) if (await executable(candidate)) return candidate;
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
export async function geminiVersion(binary: string): Promise<string | undefined> {
  for (let dir = dirname(binary), up = 0; up < 3; dir = dirname(dir), up++) {
    try {
      const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === PACKAGE) return typeof pkg.version === "string" ? pkg.version : undefined;
    } catch {}
  }
  return undefined;
}

/** The folder of the agent's own built-in skills (skill-creator, antigravity-support), when it can be found. */
export function builtinSkillsDir(binary: string): string {
  return join(dirname(binary), "builtin");
}
