import { rm } from "node:fs/promises";
import { ACP_PREFIX, isAcpCommand } from "../agents/acp/command.js";
import { acpAgentName } from "../agents/acp/entry.js";
import { type AgentRunResult, retryableOutcomes } from "../agents/agent.js";
import { type AgentName, createAgent } from "../agents/registry.js";
import { SIM_MODEL } from "../contracts/sim-model.js";
import { SkillgymError } from "../errors.js";
import { createTempRoot } from "../workspace/temp-root.js";
import { type Judge, JudgeError, type JudgeRequest, type JudgeResponse } from "./judge.js";

/** The agents that can judge: each runs read-only, with the judge's instructions as its system prompt. */
export type AgentJudgeName =
  | Extract<AgentName, "claude-code" | "codex" | "gemini" | "opencode" | "copilot">
  | `acp:${string}`;

export const agentJudgeNames: readonly Exclude<AgentJudgeName, `acp:${string}`>[] = [
  "claude-code",
  "codex",
  "gemini",
  "opencode",
  "copilot",
];

export interface AgentJudgeOptions {
  /** Path of the agent's binary; default: the one installed beside skillgym, then PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; then no credentials are needed. */
  simulatorUrl?: string;
  model?: string;
  env?: NodeJS.ProcessEnv;
  /** Names of `env`'s variables the judge gets besides its own credentials and the allowed base (evals.json `env`). */
  passEnv?: readonly string[];
  timeoutMs?: number;
  /** Every call inside the OS sandbox (`--sandbox`): the run's folder read-only, the model's API the only host. */
  sandbox?: boolean;
}

// How messages name each agent.
const displayNames: Record<Exclude<AgentJudgeName, `acp:${string}`>, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  opencode: "OpenCode",
  copilot: "Copilot CLI",
};

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
// Windows caps a whole command line at 32,767 characters; Linux caps one argument at 128 KiB.
const MAX_ARGUMENT_CHARS = process.platform === "win32" ? 30_000 : 120_000;

export function isAgentJudge(backend: string): backend is AgentJudgeName {
  return isAcpCommand(backend) || (agentJudgeNames as readonly string[]).includes(backend);
}

/** A judge named by an ACP agent's command (`acp:<command…>`). */
export function isAcpJudge(backend: string): backend is `acp:${string}` {
  return isAcpCommand(backend);
}

function displayName(name: AgentJudgeName): string {
  return isAcpJudge(name) ? `the ACP agent ${name.slice(ACP_PREFIX.length)}` : displayNames[name];
}

function failure(who: string, result: AgentRunResult): Error {
  if (result.outcome === "cancelled") return new SkillgymError("CANCELLED", "the judge was cancelled");
  const why = result.message ?? result.outcome;
  if (result.outcome === "auth_error")
    return new JudgeError(`${who} (the judge) could not authenticate: ${why}`, false);
  return new JudgeError(`${who} (the judge) failed: ${why}`, retryableOutcomes.includes(result.outcome));
}

// Claude Code reports dollars itself; the other agents are priced from their tokens by their adapters.
function missingCostNote(name: AgentJudgeName, model: string): string {
  return name === "claude-code"
    ? "Claude Code reported no total_cost_usd: the cost is counted as 0"
    : `no price is known for ${name}'s model ${model}: its cost is counted as 0`;
}

// What the judge tried beyond reading and was refused: recorded with its grading, never silently dropped.
function refusedBy(run: AgentRunResult): { refused?: string[] } {
  const refused = run.events.flatMap((e) =>
    e.kind === "refused" ? [`${e.what} ${e.target}: ${e.reason}`] : [],
  );
  return refused.length > 0 ? { refused } : {};
}

/** An agent itself as the judge: read-only tools, working in the run's folder, each call in a fresh home. */
export async function createAgentJudge(
  name: AgentJudgeName,
  options: AgentJudgeOptions = {},
): Promise<Judge> {
  const who = displayName(name);
  const agent = await createAgent(name, {
    // An agent that cannot choose the judge's model says so now (an ACP agent that offers no model selection).
    ...(options.model ? { models: [options.model] } : {}),
    ...(options.binary ? { binary: options.binary } : {}),
    ...(options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
    ...(options.sandbox ? { sandbox: true } : {}),
  });
  const model = options.model ?? (options.simulatorUrl ? SIM_MODEL : undefined);

  async function complete(request: JudgeRequest): Promise<JudgeResponse> {
    const size = request.prompt.length + request.system.length;
    if (size > MAX_ARGUMENT_CHARS) {
      throw new JudgeError(
        `the judge prompt has ${size} characters, more than a command line takes (${MAX_ARGUMENT_CHARS}); ` +
          `let ${who} read the run's files from its working folder instead of inlining them`,
        false,
      );
    }
    const home = await createTempRoot("judge");
    try {
      const run = await agent.run({
        prompt: request.prompt,
        tools: "read-only",
        systemPrompt: request.system,
        cwd: request.workspaceDir ?? home,
        home,
        ...(model ? { model } : {}),
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const result = run.result;
      if (run.outcome !== "success" || !result) throw failure(who, run);
      const usage = result.usage;
      const answeredBy = run.init?.model || model || name;
      return {
        text: result.text,
        model: answeredBy,
        inputTokens: usage ? usage.inputTokens + usage.cacheWriteTokens + usage.cacheReadTokens : 0,
        outputTokens: usage?.outputTokens ?? 0,
        costUsd: options.simulatorUrl ? 0 : (result.costUsd ?? 0),
        durationMs: run.process.durationMs,
        ...refusedBy(run),
        ...(result.costUsd === undefined && !options.simulatorUrl
          ? { costNote: missingCostNote(name, answeredBy) }
          : {}),
      };
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }

  return {
    backend: name,
    model: model ?? `${isAcpCommand(name) ? acpAgentName(name) : name}-default`,
    simulated: Boolean(options.simulatorUrl),
    readsWorkspace: true,
    ...(agent.sandboxed ? { sandboxed: true } : {}),
    complete,
  };
}
