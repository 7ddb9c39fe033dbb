import { readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { firstRunnable, pathCandidates } from "../../executables.js";
import { packageDir } from "../binary-lookup.js";

// Codex CLI's platform package ships a ripgrep beside its binary (`vendor/<target>/codex-path/rg`).
async function codexRipgrep(platform: NodeJS.Platform, rg: string): Promise<string[]> {
  const dir = packageDir(`@openai/codex-${platform}-${process.arch}`);
  // Stryker disable next-line ArrayDeclaration: equivalent, a candidate no file has is never runnable
  if (!dir) return [];
  try {
    const targets = await readdir(join(dir, "vendor"));
    return targets.map((target) => join(dir, "vendor", target, "codex-path", rg));
  } catch {
    // Stryker disable next-line ArrayDeclaration: equivalent, a candidate no file has is never runnable
    return [];
  }
}

/**
 * A ripgrep for OpenCode's skill, glob and grep tools. OpenCode takes `rg` from PATH, else from its own cache folder,
 * else downloads it from GitHub into that folder: with a fresh home per run, that is a download in every run (and a
 * failed skill load offline). Found here once: the user's PATH (OpenCode finds that one itself), the copy OpenCode
 * downloaded into the user's own cache, or the one Codex CLI ships.
 */
export async function findRipgrep(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<{ path: string; onPath: boolean } | undefined> {
  const onPath = await firstRunnable(pathCandidates("rg", env));
  if (onPath) return { path: onPath, onPath: true };
  const rg = platform === "win32" ? "rg.exe" : "rg";
  const cache = env.XDG_CACHE_HOME || join(env.HOME ?? homedir(), ".cache");
  const found = await firstRunnable([
    join(cache, "opencode", "bin", rg),
    ...(await codexRipgrep(platform, rg)),
  ]);
  return found ? { path: found, onPath: false } : undefined;
}

export const RIPGREP_WARNING =
  "ripgrep (rg) was not found: OpenCode's skill, glob and grep tools need it, so OpenCode downloads it from GitHub " +
  "in every run (each run has its own home) and a skill load fails offline; install ripgrep or put rg on PATH";
