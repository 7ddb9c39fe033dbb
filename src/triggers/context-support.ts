import { SkillgymError } from "../errors.js";

/**
 * Why an agent cannot take `--context`: each has a headless way to continue a session, but its session is a store
 * skillgym does not write yet (probed with the versions in docs/agents.md). Pasting the history into the prompt
 * instead would test another thing, so the flag is refused.
 */
const REASONS: Record<string, string> = {
  codex:
    "Codex CLI continues a session with `codex exec resume <id>`, but only one it recorded itself (a rollout file under ~/.codex/sessions); skillgym does not write those yet",
  opencode:
    "OpenCode continues a session with `opencode run --session <id>`, but its sessions live in its own database; skillgym does not write them yet",
  copilot:
    "Copilot CLI continues a session with `--resume <id>`, but only one from its own session state; skillgym does not write that yet",
};

/** The usage error for `--context` on an agent that cannot continue a prior conversation headless. */
export function contextRefused(agent: string): SkillgymError {
  const reason = REASONS[agent] ?? `${agent} has no headless way to continue a prior conversation`;
  return new SkillgymError("USAGE", `--context is not available with ${agent}: ${reason}`, {
    hint: "run --context with --agent claude-code or gemini, or leave it out (the history is never pasted into the prompt)",
  });
}
