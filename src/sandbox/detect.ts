import { SkillgymError } from "../errors.js";
import { firstRunnable, pathCandidates } from "../executables.js";

/**
 * The bubblewrap binary a sandboxed run starts through. Never runs unsandboxed when a sandbox was asked for: another
 * platform is a usage error (exit 2), a Linux without `bwrap` on PATH cannot run the agent at all (exit 3).
 */
export async function locateBwrap(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  if (platform !== "linux") {
    throw new SkillgymError("USAGE", `--sandbox is not supported on ${platform}`, {
      hint: "the sandbox is bubblewrap's, Linux only: run without --sandbox (and without `sandbox` in evals.json), or on Linux",
    });
  }
  const found = await firstRunnable(pathCandidates("bwrap", env));
  if (found) return found;
  throw new SkillgymError("AGENT_UNAVAILABLE", "--sandbox needs bubblewrap (`bwrap`), which is not on PATH", {
    hint: "install it: `apt-get install bubblewrap` (Debian, Ubuntu) or `dnf install bubblewrap` (Fedora, RHEL)",
  });
}
