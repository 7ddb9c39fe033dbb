import { join } from "node:path";
import { SkillgymError } from "../../errors.js";
import {
  explicitBinary,
  firstRunnable,
  installedVersion,
  packageDir,
  pathCandidates,
} from "../binary-lookup.js";

const exe = process.platform === "win32" ? ".exe" : "";
// The npm package ships a placeholder bin/claude.exe until its postinstall fills it with the real binary.
const REAL_BINARY_BYTES = 1_000_000;

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

/** Finds the Claude Code binary: an explicit path, then the one npm installed with skillgym, then `claude` on PATH. */
export async function locateClaude(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (explicit) {
    return explicitBinary(
      explicit,
      "pass the path of a Claude Code binary to --agent-bin, or leave it out to use the bundled one",
    );
  }
  const found =
    (await firstRunnable(bundledCandidates(), REAL_BINARY_BYTES)) ??
    (await firstRunnable(pathCandidates("claude", env)));
  if (found) return found;
  throw new SkillgymError("AGENT_UNAVAILABLE", "Claude Code was not found", {
    hint: "run `npm install` in skillgym (it installs @anthropic-ai/claude-code), put `claude` on PATH, or pass --agent-bin",
  });
}

/** The version of a binary npm installed (read from its package's package.json); undefined for any other binary. */
export function bundledVersion(binary: string): Promise<string | undefined> {
  return installedVersion(
    binary,
    2,
    (pkg) => typeof pkg.name === "string" && pkg.name.startsWith("@anthropic-ai/claude-code"),
  );
}
