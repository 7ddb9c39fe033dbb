import { join } from "node:path";
import { type ClaudeCodeOptions, createClaudeCodeAgent } from "../../src/agents/index.js";
import type { Agent } from "../../src/agents/agent.js";

/**
 * The path of the test double of the `claude` binary (test/agent-double/claude.mjs): a scripted agent that starts in a
 * fraction of Claude Code's time, for tests of features that do not depend on which agent runs.
 */
export const agentDouble = join(import.meta.dirname, "claude.mjs");

/** The CLI flags that make a `skillgym` command drive the double through the claude-code adapter. */
export const doubleFlags: readonly string[] = ["--agent-bin", agentDouble];

/** The claude-code adapter driving the double, as `createClaudeCodeAgent` would drive the real binary. */
export function createDoubleAgent(options: Omit<ClaudeCodeOptions, "binary"> = {}): Promise<Agent> {
  return createClaudeCodeAgent({ ...options, binary: agentDouble });
}
