export type { Agent, AgentRunRequest, AgentRunResult } from "./agent.js";
export { retryableOutcomes } from "./agent.js";
export { type ClaudeCodeOptions, createClaudeCodeAgent } from "./claude-code/agent.js";
export { parseStreamLine } from "./claude-code/parse-stream.js";
export { type AgentEvent, skillLoadedBy, type TokenUsage, totalTokens } from "./events.js";
