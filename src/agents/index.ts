export type { Agent, AgentRunRequest, AgentRunResult, ToolPolicy } from "./agent.js";
export { retryableOutcomes } from "./agent.js";
export { type ClaudeCodeOptions, createClaudeCodeAgent } from "./claude-code/agent.js";
export { parseStreamLine } from "./claude-code/parse-stream.js";
export { type AgentEvent, type TokenUsage, type ToolKind, totalTokens } from "./events.js";
export {
  type AgentFactoryOptions,
  type AgentName,
  agentNames,
  createAgent,
  isToolNamed,
  skillLoadOf,
} from "./registry.js";
