import { describe, expect, it } from "vitest";
import {
  agreementOf,
  belowAgreement,
  newVerifyTally,
  recordAgreement,
  takeForVerify,
} from "../../../src/triggers/replay/verify.js";

const picks = (percent: number, n: number) => {
  const tally = newVerifyTally(percent);
  return Array.from({ length: n }, () => (takeForVerify(tally) ? 1 : 0)).join("");
};

describe("--screen-verify P", () => {
  it("checks P% of the replayed runs, spread evenly, the first one included", () => {
    expect(picks(0, 10)).toBe("0000000000");
    expect(picks(10, 20)).toBe("10000000001000000000");
    expect(picks(25, 8)).toBe("10001000");
    expect(picks(100, 5)).toBe("11111");
  });

  it("falls below the mark under 95% agreement, not at it", () => {
    const tally = newVerifyTally(100);
    expect(belowAgreement(tally)).toBe(false);
    for (let i = 0; i < 19; i++) recordAgreement(tally, true);
    recordAgreement(tally, false);
    expect(agreementOf(tally)).toBe(0.95);
    expect(belowAgreement(tally)).toBe(false);
    recordAgreement(tally, false);
    expect(belowAgreement(tally)).toBe(true);
  });
});
