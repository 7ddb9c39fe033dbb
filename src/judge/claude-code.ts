import { type AgentJudgeOptions, createAgentJudge } from "./agent-judge.js";
import type { Judge } from "./judge.js";

export type ClaudeCodeJudgeOptions = AgentJudgeOptions;

/** Claude Code itself as the judge: read-only tools, working in the run's folder, each call in a fresh home. */
export function createClaudeCodeJudge(options: ClaudeCodeJudgeOptions = {}): Promise<Judge> {
  return createAgentJudge("claude-code", options);
}
