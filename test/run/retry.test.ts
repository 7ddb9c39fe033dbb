import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import type { RunOutcome } from "../../src/agents/agent.js";
import { type RetryInfo, sleep, withRetries } from "../../src/run/retry.js";

// An attempt that answers with the given outcomes in turn, then succeeds.
function attempts(outcomes: RunOutcome[]) {
  const made: number[] = [];
  const attempt = async (n: number) => {
    made.push(n);
    return { outcome: outcomes[n - 1] ?? ("success" as RunOutcome), n };
  };
  return { attempt, made };
}

describe("withRetries", () => {
  it("doubles the wait after each busy answer, from the base delay up to the cap", async () => {
    const { attempt, made } = attempts(["rate_limited", "overloaded", "server_error", "rate_limited"]);
    const retries: RetryInfo[] = [];
    const discarded: number[] = [];
    const { result, attempts: used } = await withRetries(attempt, {
      policy: { attempts: 6, baseDelayMs: 1, maxDelayMs: 5 },
      onRetry: (info) => retries.push(info),
      discard: async (r) => {
        discarded.push(r.n);
      },
    });
    expect(retries.map((r) => r.delayMs)).toEqual([1, 2, 4, 5]);
    expect(retries.map((r) => [r.attempt, r.outcome])).toEqual([
      [1, "rate_limited"],
      [2, "overloaded"],
      [3, "server_error"],
      [4, "rate_limited"],
    ]);
    expect(discarded).toEqual([1, 2, 3, 4]);
    expect(made).toEqual([1, 2, 3, 4, 5]);
    expect(result.outcome).toBe("success");
    expect(used).toBe(5);
  });

  it("stops after the policy's attempts and returns the last busy answer", async () => {
    const { attempt, made } = attempts(Array(10).fill("overloaded"));
    const seen: RunOutcome[] = [];
    const { result, attempts: used } = await withRetries(attempt, {
      policy: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1, observe: (o) => seen.push(o) },
    });
    expect(made).toEqual([1, 2, 3]);
    expect(used).toBe(3);
    expect(result.outcome).toBe("overloaded");
    expect(seen).toEqual(["overloaded", "overloaded", "overloaded"]);
  });

  it("does not retry an answer that is not the service being busy, nor after the user cancelled", async () => {
    const timeout = attempts(["timeout"]);
    expect(
      (await withRetries(timeout.attempt, { policy: { attempts: 4, baseDelayMs: 1, maxDelayMs: 1 } }))
        .attempts,
    ).toBe(1);
    const controller = new AbortController();
    controller.abort();
    const busy = attempts(["rate_limited", "rate_limited"]);
    const cancelled = await withRetries(busy.attempt, {
      policy: { attempts: 4, baseDelayMs: 1, maxDelayMs: 1 },
      signal: controller.signal,
    });
    expect(cancelled.attempts).toBe(1);
    expect(busy.made).toEqual([1]);
  });
});

describe("sleep", () => {
  it("ends early when the signal aborts, leaving no timer behind", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      let ended = false;
      const slept = sleep(60_000, controller.signal).then(() => {
        ended = true;
      });
      await vi.advanceTimersByTimeAsync(10);
      expect(ended).toBe(false);
      controller.abort();
      await slept;
      expect(ended).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("leaves no listener on the signal after a wait that ran its time, and does not wait on an aborted signal", async () => {
    const controller = new AbortController();
    await sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toEqual([]);
    controller.abort();
    vi.useFakeTimers();
    try {
      let ended = false;
      const slept = sleep(60_000, controller.signal).then(() => {
        ended = true;
      });
      await vi.advanceTimersByTimeAsync(1);
      expect(ended).toBe(true);
      await slept;
    } finally {
      vi.useRealTimers();
    }
  });
});
