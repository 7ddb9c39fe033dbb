import { describe, expect, it } from "vitest";
import { adaptiveLimit, rateLimitRecord } from "../../src/run/adaptive-limit.js";
import { runPool } from "../../src/run/pool.js";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("adaptiveLimit", () => {
  it("halves on each 429 down to 1, then climbs one step per clean wave back to the maximum", () => {
    const limit = adaptiveLimit(8);
    const trace: number[] = [];
    for (let i = 0; i < 4; i++) {
      limit.observe("rate_limited");
      trace.push(limit.current());
    }
    expect(trace).toEqual([4, 2, 1, 1]);
    const climb: number[] = [];
    for (let i = 0; i < 40 && limit.current() < 8; i++) {
      limit.observe("success");
      climb.push(limit.current());
    }
    // 1 success lifts 1→2, 2 lift 2→3, … : slowly, never jumping.
    expect([...new Set(climb)]).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(climb).toHaveLength(1 + 2 + 3 + 4 + 5 + 6 + 7);
    expect(limit.stats()).toEqual({ events: 4, reductions: 3, lowest: 1, max: 8, final: 8 });
  });

  it("never climbs past the maximum, however many clean runs follow", () => {
    const limit = adaptiveLimit(2);
    limit.observe("rate_limited");
    for (let i = 0; i < 10; i++) limit.observe("success");
    expect(limit.current()).toBe(2);
    expect(limit.stats()).toMatchObject({ max: 2, final: 2 });
  });

  it("ignores outcomes that say nothing about the rate limit, and a 429 restarts the clean count", () => {
    const limit = adaptiveLimit(4);
    limit.observe("rate_limited");
    limit.observe("success");
    limit.observe("timeout");
    limit.observe("rate_limited");
    expect(limit.current()).toBe(1);
    limit.observe("agent_error");
    expect(limit.current()).toBe(1);
    limit.observe("success");
    expect(limit.current()).toBe(2);
  });

  it("is recorded only when a 429 came", () => {
    expect(rateLimitRecord(adaptiveLimit(3))).toEqual({});
    const limit = adaptiveLimit(3);
    limit.observe("rate_limited");
    expect(rateLimitRecord(limit)).toEqual({
      rate_limits: {
        events: 1,
        reductions: 1,
        lowest_concurrency: 1,
        final_concurrency: 1,
        max_concurrency: 3,
      },
    });
  });
});

describe("runPool with a changing limit", () => {
  it("starts fewer items at once while the limit is lowered and more once it rises", async () => {
    const limit = adaptiveLimit(6);
    let running = 0;
    let overLimit = 0;
    const peakAt: number[] = [];
    const items = Array.from({ length: 60 }, (_, i) => i);
    await runPool(
      items,
      () => limit.current(),
      async (item) => {
        running++;
        peakAt[item] = running;
        if (running > limit.current()) overLimit++;
        await pause(2);
        running--;
        // Items 6..11 meet a burst of 429s; the rest succeed.
        limit.observe(item >= 6 && item < 12 ? "rate_limited" : "success");
      },
    );
    expect(Math.max(...peakAt.slice(0, 6))).toBe(6);
    expect(overLimit).toBe(0);
    // The burst's answers arrive together; the next starts go one or two at a time.
    expect(Math.min(...peakAt.slice(12, 17))).toBe(1);
    expect(Math.max(...peakAt.slice(12, 17))).toBeLessThanOrEqual(2);
    expect(Math.max(...peakAt.slice(50))).toBeGreaterThanOrEqual(5);
    expect(limit.stats().lowest).toBe(1);
  });
});
