import { describe, expect, it } from "vitest";
import { LiftInterval } from "../../src/contracts/index.js";
import { issueMessages, issuePaths } from "./issues.js";

describe("the lift interval of a history row", () => {
  it("accepts an interval whose low end is not above its high end", () => {
    expect(LiftInterval.parse({ estimate: 0.2, ci_low: -0.1, ci_high: 0.5 })).toEqual({
      estimate: 0.2,
      ci_low: -0.1,
      ci_high: 0.5,
    });
    expect(LiftInterval.safeParse({ estimate: 0, ci_low: 0, ci_high: 0 }).success).toBe(true);
  });

  it("refuses at ci_low an interval whose ends are swapped", () => {
    const swapped = { estimate: 0.2, ci_low: 0.5, ci_high: -0.1 };
    expect(issuePaths(LiftInterval, swapped)).toEqual(["ci_low"]);
    expect(issueMessages(LiftInterval, swapped)).toEqual(["must not exceed ci_high"]);
  });
});
