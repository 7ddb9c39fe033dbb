import { constants } from "node:fs";
import { access, readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { SkillgymError } from "../../errors.js";

const require = createRequire(import.meta.url);
const exe = process.platform === "win32" ? ".exe" : "";

export const INSTALL_COMMAND = "npm install @openai/codex";

// The npm package's platform packages (`@openai/codex-<platform>`) and the Rust target each one ships.
const TARGETS: Record<string, string> = {
  "linux-x64": "x86_64-unknown-linux-musl",
  "linux-arm64": "aarch64-unknown-linux-musl",
  "darwin-x64": "x86_64-apple-darwin",
  "darwin-arm64": "aarch64-apple-darwin",
  "win32-x64": "x86_64-pc-windows-msvc",
  "win32-arm64": "aarch64-pc-windows-msvc",
};

async function isExecutable(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, process.platform === "win32" ? constants.F_OK : constants.X_OK);
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

// The native binary of the platform package: calling it directly skips the npm wrapper's Node start-up (~0.3 s a run).
function bundledCandidates(): string[] {
  const platform = `${process.platform}-${process.arch}`;
  const target = TARGETS[platform];
  const candidates: string[] = [];
  const native = packageDir(`@openai/codex-${platform}`);
  if (native && target) candidates.push(join(native, "vendor", target, "bin", `codex${exe}`));
  const main = packageDir("@openai/codex");
  if (main && target) candidates.push(join(main, "vendor", target, "bin", `codex${exe}`));
  return candidates;
}

function pathCandidates(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => (exe ? [join(dir, "codex.exe"), join(dir, "codex.cmd")] : [join(dir, "codex")]));
}

/** Finds the Codex CLI: an explicit path, then the native binary npm installed, then `codex` on PATH. */
export async function locateCodex(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (explicit) {
    try {
      await access(explicit, constants.F_OK);
      return explicit;
    } catch {
      throw new SkillgymError("AGENT_UNAVAILABLE", `the agent binary ${explicit} does not exist`, {
        hint: "pass the path of a Codex CLI binary to --agent-bin, or leave it out to use the installed one",
      });
    }
  }
  for (const candidate of [...bundledCandidates(), ...pathCandidates(env)])
    if (await isExecutable(candidate)) return candidate;
  throw new SkillgymError("AGENT_UNAVAILABLE", "Codex CLI was not found", {
    hint: `run \`${INSTALL_COMMAND}\`, put \`codex\` on PATH, or pass --agent-bin`,
  });
}

/** The version of a binary npm installed (from its package's codex-package.json or package.json); else undefined. */
export async function codexVersion(binary: string): Promise<string | undefined> {
  for (let dir = dirname(binary), up = 0; up < 4; dir = dirname(dir), up++) {
    for (const file of ["codex-package.json", "package.json"]) {
      try {
        const pkg = JSON.parse(await readFile(join(dir, file), "utf8")) as {
          name?: unknown;
          version?: unknown;
          variant?: unknown;
        };
        const isCodex =
          pkg.variant === "codex" || (typeof pkg.name === "string" && pkg.name.startsWith("@openai/codex"));
        if (isCodex && typeof pkg.version === "string") return pkg.version.replace(/-[a-z].*$/, "");
      } catch {}
    }
  }
  return undefined;
}
