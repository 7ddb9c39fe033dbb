import { describe, expect, it } from "vitest";
import { evalKey, isGraded, type RunData, timeSeconds, tokensUsed } from "../../src/bench/model.js";
import { grading } from "./iteration-fixture.js";

const base: RunData = { evalId: 1, evalName: "one", configuration: "with_skill", runNumber: 1, problems: [] };

describe("the run model", () => {
  it("counts a run as graded only when it has a grading and is not left out", () => {
    expect(isGraded(base)).toBe(false);
    expect(isGraded({ ...base, grading: grading({ a: true }) })).toBe(true);
    expect(
      isGraded({
        ...base,
        grading: grading({ a: true }),
        exclusion: { kind: "errored", reason: "timeout", message: "timeout" },
      }),
    ).toBe(false);
  });

  it("keys an eval by its id as text, so 1 and '1' are one eval", () => {
    expect(evalKey(1)).toBe("1");
    expect(evalKey("1")).toBe(evalKey(1));
  });

  it("takes the time from timing.json: total, else the executor's, else the milliseconds", () => {
    const t = (timing: RunData["timing"]) => timeSeconds({ ...base, timing });
    expect(t({ total_duration_seconds: 12, executor_duration_seconds: 9, duration_ms: 5000 })).toBe(12);
    expect(t({ executor_duration_seconds: 9, duration_ms: 5000 })).toBe(9);
    expect(t({ duration_ms: 5500 })).toBe(5.5);
    expect(t({ duration_ms: 0 })).toBe(0);
    expect(t({})).toBeUndefined();
  });

  it("falls back to what grading.json copied when there is no timing.json: the executor's time first", () => {
    const g = (timing: Record<string, number>) =>
      timeSeconds({ ...base, grading: { ...grading({ a: true }), timing } });
    expect(g({ executor_duration_seconds: 9, total_duration_seconds: 14 })).toBe(9);
    expect(g({ total_duration_seconds: 14 })).toBe(14);
    expect(g({})).toBeUndefined();
    expect(timeSeconds(base)).toBeUndefined();
    // timing.json wins over grading.json, even when it lacks the time.
    expect(
      timeSeconds({
        ...base,
        timing: {},
        grading: { ...grading({ a: true }), timing: { total_duration_seconds: 3 } },
      }),
    ).toBeUndefined();
  });

  it("takes the tokens from timing.json, else from grading.json", () => {
    const graded = { ...grading({ a: true }), timing: { total_tokens: 700 } };
    expect(tokensUsed({ ...base, timing: { total_tokens: 900 }, grading: graded })).toBe(900);
    expect(tokensUsed({ ...base, timing: {}, grading: graded })).toBe(700);
    expect(tokensUsed(base)).toBeUndefined();
  });
});
