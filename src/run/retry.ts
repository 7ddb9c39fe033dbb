import { type RunOutcome, retryableOutcomes } from "../agents/agent.js";

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Told of every attempt's outcome (the adaptive concurrency listens for 429s here). */
  observe?: (outcome: RunOutcome) => void;
}

/** Every agent run, eval or trigger, retries a busy service this way unless the caller says otherwise. */
export const defaultRetry: RetryPolicy = { attempts: 4, baseDelayMs: 2000, maxDelayMs: 30_000 };

export interface RetryInfo {
  attempt: number;
  outcome: RunOutcome;
  delayMs: number;
}

/** Waits `ms`, or less when `signal` aborts; leaves no timer and no listener on the signal behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const woken = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", woken);
      resolve();
    };
    const timer = setTimeout(woken, signal?.aborted ? 0 : ms);
    signal?.addEventListener("abort", woken);
  });
}

/**
 * Runs `attempt` until its outcome is not retryable (the service was busy), the attempts are used up, or the user
 * cancelled; waits with exponential backoff between attempts and lets the caller discard a failed attempt.
 */
export async function withRetries<T extends { outcome: RunOutcome }>(
  attempt: (n: number) => Promise<T>,
  options: {
    policy: RetryPolicy;
    signal?: AbortSignal;
    onRetry?: (info: RetryInfo) => void;
    discard?: (result: T) => Promise<void>;
  },
): Promise<{ result: T; attempts: number }> {
  for (let n = 1; ; n++) {
    const result = await attempt(n);
    options.policy.observe?.(result.outcome);
    const retry =
      retryableOutcomes.includes(result.outcome) && n < options.policy.attempts && !options.signal?.aborted;
    if (!retry) return { result, attempts: n };
    const delayMs = Math.min(options.policy.maxDelayMs, options.policy.baseDelayMs * 2 ** (n - 1));
    options.onRetry?.({ attempt: n, outcome: result.outcome, delayMs });
    await options.discard?.(result);
    await sleep(delayMs, options.signal);
  }
}
