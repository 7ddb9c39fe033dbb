import { constants } from "node:fs";
import { access, readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { SkillgymError } from "../../errors.js";

const require = createRequire(import.meta.url);
const exe = process.platform === "win32" ? ".exe" : "";

async function isRealBinary(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size < 1_000_000) return false; // the npm package ships a placeholder until postinstall fills it
    if (process.platform !== "win32") await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function packageDir(name: string): string | undefined {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

// The npm package's bin/claude.exe, filled by its postinstall; if that step did not run, the platform package's binary.
function bundledCandidates(): string[] {
  const candidates: string[] = [];
  const main = packageDir("@anthropic-ai/claude-code");
  if (main) candidates.push(join(main, "bin", "claude.exe"));
  const platform = `${process.platform}-${process.arch}`;
  for (const suffix of ["", "-musl"]) {
    const dir = packageDir(`@anthropic-ai/claude-code-${platform}${suffix}`);
    if (dir) candidates.push(join(dir, `claude${exe}`));
  }
  return candidates;
}

function pathCandidates(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => (exe ? [join(dir, "claude.exe"), join(dir, "claude.cmd")] : [join(dir, "claude")]));
}

/** Finds the Claude Code binary: an explicit path, then the one npm installed with skillgym, then `claude` on PATH. */
export async function locateClaude(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (explicit) {
    try {
      await access(explicit, constants.F_OK);
      return explicit;
    } catch {
      throw new SkillgymError("AGENT_UNAVAILABLE", `the agent binary ${explicit} does not exist`, {
        hint: "pass the path of a Claude Code binary to --agent-bin, or leave it out to use the bundled one",
      });
    }
  }
  for (const candidate of bundledCandidates()) if (await isRealBinary(candidate)) return candidate;
  for (const candidate of pathCandidates(env)) {
    try {
      await access(candidate, process.platform === "win32" ? constants.F_OK : constants.X_OK);
      return candidate;
    } catch {}
  }
  throw new SkillgymError("AGENT_UNAVAILABLE", "Claude Code was not found", {
    hint: "run `npm install` in skillgym (it installs @anthropic-ai/claude-code), put `claude` on PATH, or pass --agent-bin",
  });
}

/** The version of a binary npm installed (read from its package's package.json); undefined for any other binary. */
export async function bundledVersion(binary: string): Promise<string | undefined> {
  for (let dir = dirname(binary), up = 0; up < 2; dir = dirname(dir), up++) {
    try {
      const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (typeof pkg.name === "string" && pkg.name.startsWith("@anthropic-ai/claude-code"))
        return typeof pkg.version === "string" ? pkg.version : undefined;
    } catch {}
  }
  return undefined;
}
