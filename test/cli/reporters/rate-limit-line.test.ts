import { describe, expect, it } from "vitest";
import { rateLimitLine } from "../../../src/cli/reporters/rate-limit-line.js";

describe("rateLimitLine", () => {
  it("says nothing when no 429 came", () => {
    expect(rateLimitLine("eval runs", undefined)).toBeUndefined();
  });

  it("says how many 429s, how often and how low the concurrency fell, and where it ended", () => {
    const r = { events: 3, reductions: 1, lowest_concurrency: 2, final_concurrency: 3, max_concurrency: 4 };
    expect(rateLimitLine("trigger runs", r)).toBe(
      "rate limited (trigger runs): 3 429 answers; concurrency lowered once, down to 2 of 4, ended at 3",
    );
  });
});
