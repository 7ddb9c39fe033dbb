import { rm } from "node:fs/promises";
import { type AgentRunResult, retryableOutcomes } from "../agents/agent.js";
import { createAgent } from "../agents/registry.js";
import { SIM_MODEL } from "../contracts/sim-model.js";
import { SkillgymError } from "../errors.js";
import { createTempRoot } from "../workspace/temp-root.js";
import { type Judge, JudgeError, type JudgeRequest, type JudgeResponse } from "./judge.js";

export interface ClaudeCodeJudgeOptions {
  /** Path of the claude binary; default: the bundled one, then `claude` on PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; then no credentials are needed. */
  simulatorUrl?: string;
  model?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
// Windows caps a whole command line at 32,767 characters; Linux caps one argument at 128 KiB.
const MAX_ARGUMENT_CHARS = process.platform === "win32" ? 30_000 : 120_000;

function failure(result: AgentRunResult): Error {
  if (result.outcome === "cancelled") return new SkillgymError("CANCELLED", "the judge was cancelled");
  const why = result.message ?? result.outcome;
  if (result.outcome === "auth_error")
    return new JudgeError(`Claude Code (the judge) could not authenticate: ${why}`, false);
  return new JudgeError(`Claude Code (the judge) failed: ${why}`, retryableOutcomes.includes(result.outcome));
}

/** Claude Code itself as the judge: read-only tools, working in the run's folder, each call in a fresh home. */
export async function createClaudeCodeJudge(options: ClaudeCodeJudgeOptions = {}): Promise<Judge> {
  const agent = await createAgent("claude-code", {
    ...(options.binary ? { binary: options.binary } : {}),
    ...(options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  const model = options.model ?? (options.simulatorUrl ? SIM_MODEL : undefined);

  async function complete(request: JudgeRequest): Promise<JudgeResponse> {
    const size = request.prompt.length + request.system.length;
    if (size > MAX_ARGUMENT_CHARS) {
      throw new JudgeError(
        `the judge prompt has ${size} characters, more than a command line takes (${MAX_ARGUMENT_CHARS}); ` +
          "let Claude Code read the run's files from its working folder instead of inlining them",
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
      if (run.outcome !== "success" || !result) throw failure(run);
      const usage = result.usage;
      return {
        text: result.text,
        model: run.init?.model || model || "claude-code",
        inputTokens: usage ? usage.inputTokens + usage.cacheWriteTokens + usage.cacheReadTokens : 0,
        outputTokens: usage?.outputTokens ?? 0,
        costUsd: options.simulatorUrl ? 0 : (result.costUsd ?? 0),
        durationMs: run.process.durationMs,
        ...(result.costUsd === undefined && !options.simulatorUrl
          ? { costNote: "Claude Code reported no total_cost_usd: the cost is counted as 0" }
          : {}),
      };
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }

  return {
    backend: "claude-code",
    model: model ?? "claude-code-default",
    simulated: Boolean(options.simulatorUrl),
    complete,
  };
}
