import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { SkillgymError } from "../errors.js";
import { firstRunnable, pathCandidates } from "../executables.js";

// The steps every adapter takes to find its agent's binary; each adapter keeps only its own candidates.

const require = createRequire(import.meta.url);

/** The folder of an installed npm package, found from skillgym's own node_modules. */
export function packageDir(name: string): string | undefined {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {}
  return undefined;
}

/** An `--agent-bin` path as given, or the error a run would stop on (exit 3). */
export async function explicitBinary(path: string, hint: string): Promise<string> {
  try {
    await access(path, constants.F_OK);
    return path;
  } catch {
    throw new SkillgymError("AGENT_UNAVAILABLE", `the agent binary ${path} does not exist`, { hint });
  }
}

/** What an adapter knows about finding its agent: its name, its command on PATH, how to install it, what npm put where. */
export interface BinarySearch {
  /** The agent's name in messages ("Codex CLI"). */
  label: string;
  /** Its command on PATH ("codex"). */
  command: string;
  /** How a user installs it ("npm install @openai/codex"). */
  install: string;
  /** The binaries npm installed beside skillgym, best first (found only when runnable). */
  bundled: () => Promise<string | undefined>;
  /** A smaller file on PATH is a stub, not the agent (default 0). */
  minBytes?: number;
}

/** Finds an agent's binary: an explicit path (exit 3 if missing), then npm's copy, then its command on PATH. */
export async function locateBinary(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv,
  search: BinarySearch,
): Promise<string> {
  if (explicit) {
    return explicitBinary(
      explicit,
      `pass the path of a ${search.label} binary to --agent-bin, or install it: ${search.install}`,
    );
  }
  const found =
    (await search.bundled()) ?? (await firstRunnable(pathCandidates(search.command, env), search.minBytes));
  if (found) return found;
  throw new SkillgymError("AGENT_UNAVAILABLE", `${search.label} was not found`, {
    hint: `run \`${search.install}\`, put \`${search.command}\` on PATH, or pass --agent-bin`,
  });
}

interface PackageFile {
  name?: unknown;
  version?: unknown;
  variant?: unknown;
}

/**
 * The version recorded beside a binary npm installed: the first of `files` in its folder or up to `levels`
 * folders above whose contents `isOurs` accepts; undefined for any other binary.
 */
export async function installedVersion(
  binary: string,
  levels: number,
  isOurs: (pkg: PackageFile) => boolean,
  files: string[] = ["package.json"],
): Promise<string | undefined> {
  for (let dir = dirname(binary), up = 0; up < levels; dir = dirname(dir), up++) {
    for (const file of files) {
      try {
        const pkg = JSON.parse(await readFile(join(dir, file), "utf8")) as PackageFile;
        if (isOurs(pkg)) return typeof pkg.version === "string" ? pkg.version : undefined;
      } catch {}
    }
  }
  return undefined;
}
