import { join } from "node:path";
import { firstRunnable } from "../../executables.js";
import { type BinarySearch, installedVersion, locateBinary, packageDir } from "../binary-lookup.js";

// Stryker disable next-line StringLiteral: Windows only, the suffix is read on win32 alone and cannot run here
const exe = process.platform === "win32" ? ".exe" : "";
// The npm package ships a placeholder bin/claude.exe until its postinstall fills it with the real binary.
const REAL_BINARY_BYTES = 1_000_000;

// The npm package's bin/claude.exe, filled by its postinstall; if that step did not run, the platform package's binary.
export function bundledCandidates(): string[] {
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

export const INSTALL_COMMAND = "npm install @anthropic-ai/claude-code";

/** How Claude Code is found: its name in messages, its command on PATH, its install command, npm's copy. */
export const claudeSearch: BinarySearch = {
  label: "Claude Code",
  command: "claude",
  install: INSTALL_COMMAND,
  bundled: () => firstRunnable(bundledCandidates(), REAL_BINARY_BYTES),
};

/** Finds the Claude Code binary: an explicit path, then the one npm installed with skillgym, then `claude` on PATH. */
export function locateClaude(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return locateBinary(explicit, env, claudeSearch);
}

/** The version of a binary npm installed (read from its package's package.json); undefined for any other binary. */
export function bundledVersion(binary: string): Promise<string | undefined> {
  return installedVersion(
    binary,
    2,
    (pkg) => typeof pkg.name === "string" && pkg.name.startsWith("@anthropic-ai/claude-code"),
  );
}
