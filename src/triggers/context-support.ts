import { SkillgymError } from "../errors.js";
import type { ContextCondition } from "./context.js";

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

// Gemini CLI 0.61 leaves out of a loaded session every user turn that reads as one of its commands (starts with `/`
// or `?`, once trimmed) or as its own context block (`<session_context>`, `<hook_context>`).
const GEMINI_DROPS = /^(?:[/?]|<session_context>|<hook_context>)/;

/** A turn the agent would drop from the session it resumes: the run would not see the conversation it was given. */
export function droppedTurn(agent: string, context: ContextCondition): SkillgymError | undefined {
  if (agent !== "gemini") return undefined;
  const at = context.turns.findIndex((t) => t.role === "user" && GEMINI_DROPS.test(t.content.trim()));
  if (at < 0) return undefined;
  return new SkillgymError(
    "USAGE",
    `--context: ${context.file}[${at}].content: Gemini CLI drops a user turn that starts with "/" or "?" (it reads it as one of its commands) or with its own context tags from the session it resumes`,
    { file: context.file, hint: "reword the turn, or run --context with --agent claude-code" },
  );
}

/** Stops before any agent runs when the agent cannot continue the prior conversation as given. */
export function checkContextFits(
  agent: { name: string; continuesConversations?: boolean },
  context: ContextCondition,
): void {
  if (agent.continuesConversations !== true) throw contextRefused(agent.name);
  const dropped = droppedTurn(agent.name, context);
  if (dropped) throw dropped;
}
