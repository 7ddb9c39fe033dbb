import { rm } from "node:fs/promises";
import { type InitEvent, type ResultEvent, retryableOutcomes } from "../agents/agent.js";
import { claudeArgs } from "../agents/claude-code/agent.js";
import { locateClaude } from "../agents/claude-code/binary.js";
import { classifyEnd } from "../agents/claude-code/classify.js";
import { type Credentials, findCredentials } from "../agents/claude-code/credentials.js";
import { childEnvironment, prepareHome } from "../agents/claude-code/environment.js";
import { parseStreamLine } from "../agents/claude-code/parse-stream.js";
import { runProcess } from "../agents/process/run-process.js";
import { SkillgymError } from "../errors.js";
import { SIM_MODEL } from "../sim/encode.js";
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

export const judgeAllowedTools = ["Read", "Glob", "Grep"];
export const judgeDisallowedTools = [
  "Bash",
  "Edit",
  "Write",
  "NotebookEdit",
  "MultiEdit",
  "WebFetch",
  "WebSearch",
];

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
// Windows caps a whole command line at 32,767 characters; Linux caps one argument at 128 KiB.
const MAX_ARGUMENT_CHARS = process.platform === "win32" ? 30_000 : 120_000;

export function judgeArgs(request: JudgeRequest, model: string | undefined): string[] {
  return [
    ...claudeArgs({ prompt: request.prompt, model }, judgeAllowedTools),
    "--disallowedTools",
    judgeDisallowedTools.join(" "),
    "--append-system-prompt",
    request.system,
  ];
}

function failure(result: ReturnType<typeof classifyEnd>): Error {
  if (result.outcome === "cancelled") return new SkillgymError("CANCELLED", "the judge was cancelled");
  const why = result.message ?? result.outcome;
  if (result.outcome === "auth_error")
    return new JudgeError(`Claude Code (the judge) could not authenticate: ${why}`, false);
  return new JudgeError(`Claude Code (the judge) failed: ${why}`, retryableOutcomes.includes(result.outcome));
}

/** Claude Code itself as the judge: read-only tools, working in the run's folder, each call in a fresh home. */
export async function createClaudeCodeJudge(options: ClaudeCodeJudgeOptions = {}): Promise<Judge> {
  const baseEnv = options.env ?? process.env;
  const binary = await locateClaude(options.binary, baseEnv);
  const credentials: Credentials = options.simulatorUrl
    ? { kind: "simulator" }
    : await findCredentials(baseEnv);
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
      await prepareHome(home, credentials);
      const env = childEnvironment({
        base: baseEnv,
        home,
        credentials,
        ...(options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {}),
      });
      let init: InitEvent | undefined;
      let result: ResultEvent | undefined;
      const proc = await runProcess({
        command: binary,
        args: judgeArgs(request, model),
        cwd: request.workspaceDir ?? home,
        env,
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(request.signal ? { signal: request.signal } : {}),
        killGraceMs: 1500,
        onLine: (line) => {
          for (const event of parseStreamLine(line)) {
            if (event.kind === "init") init = event;
            if (event.kind === "result") result = event;
          }
          return undefined;
        },
      });
      const end = classifyEnd(proc, result);
      if (end.outcome !== "success" || !result) throw failure(end);
      const usage = result.usage;
      return {
        text: result.text,
        model: init?.model || model || "claude-code",
        inputTokens: usage
          ? usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
          : 0,
        outputTokens: usage?.output_tokens ?? 0,
        costUsd: options.simulatorUrl ? 0 : (result.costUsd ?? 0),
        durationMs: proc.durationMs,
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
