// A judge answers one grading or comparison prompt; backends differ only in where the model runs.
export type JudgeBackend =
  | "claude-code"
  | "codex"
  | "gemini"
  | "opencode"
  | "copilot"
  | "anthropic"
  | "openai"
  | "sim"
  /** Any ACP agent, by its command (`acp:<command…>`), judging as the native agents do: read-only. */
  | `acp:${string}`;

export interface JudgeRequest {
  system: string;
  prompt: string;
  maxTokens?: number;
  /** A folder the judge may read (an agent judge works in it, read-only); others get files inline. */
  workspaceDir?: string;
  signal?: AbortSignal;
}

export interface JudgeResponse {
  text: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  durationMs: number;
  /** Why `costUsd` may be wrong, e.g. no price is known for the model (then it is 0). */
  costNote?: string;
  /** What a read-only agent judge tried and was refused (a write, a permission), as `<what> <target>: <reason>`. */
  refused?: string[];
}

export interface Judge {
  readonly backend: JudgeBackend;
  readonly model: string;
  /** True when the answers come from skillgym sim, not a model. */
  readonly simulated: boolean;
  /** True when the judge reads the run's files itself from `workspaceDir` (an agent judge), so prompts carry excerpts. */
  readonly readsWorkspace?: boolean;
  /** True when the judge is an agent run inside the OS sandbox (`--sandbox`): it reads the run's folder, nothing else. */
  readonly sandboxed?: boolean;
  complete(request: JudgeRequest): Promise<JudgeResponse>;
}

export class JudgeError extends Error {
  /** What the failed attempts cost, when they reached a model. */
  readonly costUsd: number | undefined;

  constructor(
    message: string,
    readonly retryable: boolean,
    options: { costUsd?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "JudgeError";
    this.costUsd = options.costUsd;
  }
}

/** A judge's failure with what was spent before it added to its cost; any other error as it is. */
export function withEarlierCost(error: unknown, spentUsd: number): unknown {
  if (!(error instanceof JudgeError) || spentUsd === 0) return error;
  return new JudgeError(error.message, error.retryable, {
    costUsd: (error.costUsd ?? 0) + spentUsd,
    cause: error.cause,
  });
}
