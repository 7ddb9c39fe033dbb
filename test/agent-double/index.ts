import { chmod, copyFile } from "node:fs/promises";
import { join } from "node:path";
import type { Agent } from "../../src/agents/agent.js";
import { type ClaudeCodeOptions, createClaudeCodeAgent } from "../../src/agents/index.js";
import type { Io } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { skillgym } from "../cli/cli-process.js";

/** The test double's own program (test/agent-double/claude.mjs), which starts a Node process for every run. */
export const doubleProgram = join(import.meta.dirname, "claude.mjs");

/**
 * The path of the test double of the `claude` binary: a scripted agent that starts in a fraction of Claude Code's time,
 * for tests of features that do not depend on which agent runs. Under `npm test` on Linux, the resident double's
 * script (test/agent-double/resident.ts: the same program, served by one long-lived process); else
 * {@link doubleProgram}.
 */
export const agentDouble = process.env.SKILLGYM_TEST_AGENT_DOUBLE ?? doubleProgram;

/** The CLI flags that make a `skillgym` command drive the double through the claude-code adapter. */
export const doubleFlags: readonly string[] = ["--agent-bin", agentDouble];

/** The claude-code adapter driving the double, as `createClaudeCodeAgent` would drive the real binary. */
export function createDoubleAgent(options: Omit<ClaudeCodeOptions, "binary"> = {}): Promise<Agent> {
  return createClaudeCodeAgent({ ...options, binary: agentDouble });
}

/**
 * A copy of the double in `dir`, made executable, for in-process tests to start: a copy of the repository that does
 * not keep file modes (StrykerJS's sandbox) cannot start {@link agentDouble} itself (EACCES).
 */
export async function executableDouble(dir: string): Promise<string> {
  if (agentDouble !== doubleProgram) return agentDouble;
  const binary = join(dir, "claude.mjs");
  await copyFile(doubleProgram, binary);
  await chmod(binary, 0o755);
  return binary;
}

// The commands that start an agent (or an agent judge) and so take `--agent-bin`.
const AGENT_COMMANDS = new Set([
  "run",
  "eval",
  "triggers",
  "tune",
  "optimize",
  "catalog",
  "grade",
  "draft-evals",
  "noise",
]);

/**
 * A `skillgym` command line that drives the double: `--agent-bin <double>` after the command name when the command
 * starts Claude Code; left as it is when it names another agent or its own binary, or starts no agent.
 */
export function onDouble(args: readonly string[]): string[] {
  const [command, ...rest] = args;
  if (command === undefined || !AGENT_COMMANDS.has(command) || rest.includes("--agent-bin")) return [...args];
  const agentAt = rest.indexOf("--agent");
  if (agentAt >= 0 && rest[agentAt + 1] !== "claude-code") return [...args];
  return [command, ...doubleFlags, ...rest];
}

/** The built CLI as a user runs it ({@link skillgym}), its agent the double. */
export function skillgymOnDouble(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return skillgym(onDouble(args), env);
}

/** The CLI in this process ({@link main}), its agent the double. */
export function mainOnDouble(args: string[], io?: Io): Promise<number> {
  return main(onDouble(args), io);
}
