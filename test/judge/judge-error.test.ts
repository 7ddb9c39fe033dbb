import { describe, expect, it } from "vitest";
import { JudgeError, withEarlierCost } from "../../src/judge/judge.js";

describe("JudgeError", () => {
  it("is named JudgeError and keeps its cause, its cost and whether to retry", () => {
    const cause = new Error("HTTP 503");
    const error = new JudgeError("the judge failed", true, { costUsd: 0.25, cause });
    expect(error.name).toBe("JudgeError");
    expect(String(error)).toBe("JudgeError: the judge failed");
    expect([error.message, error.retryable, error.costUsd, error.cause]).toEqual([
      "the judge failed",
      true,
      0.25,
      cause,
    ]);
    expect(new JudgeError("no cause", false).cause).toBeUndefined();
  });

  it("adds what was spent before it to its cost, keeping its message, retry and cause", () => {
    const cause = new Error("unreadable");
    const later = withEarlierCost(new JudgeError("failed", false, { costUsd: 0.5, cause }), 0.25);
    expect(later).toBeInstanceOf(JudgeError);
    const error = later as JudgeError;
    expect([error.name, error.message, error.retryable, error.costUsd, error.cause]).toEqual([
      "JudgeError",
      "failed",
      false,
      0.75,
      cause,
    ]);
  });

  it("leaves a failure that came first, or any other error, as it is", () => {
    const first = new JudgeError("failed", true);
    expect(withEarlierCost(first, 0)).toBe(first);
    expect((withEarlierCost(first, 0) as JudgeError).costUsd).toBeUndefined();
    const other = new Error("not a judge's");
    expect(withEarlierCost(other, 0.5)).toBe(other);
  });
});
