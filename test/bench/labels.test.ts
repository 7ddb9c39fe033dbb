import { describe, expect, it } from "vitest";
import {
  describeInterval,
  describeRedundancy,
  describeVerdict,
  evalLabel,
  formatSigned,
  percent,
  plural,
  quoted,
  redundancyCost,
} from "../../src/bench/labels.js";

describe("formatSigned", () => {
  it("signs every number, and never writes -0", () => {
    expect(formatSigned(0.5, 2)).toBe("+0.50");
    expect(formatSigned(-13, 1)).toBe("-13.0");
    expect(formatSigned(2000, 0)).toBe("+2000");
    expect(formatSigned(0, 2)).toBe("+0.00");
    expect(formatSigned(-0.001, 2)).toBe("+0.00");
    expect(formatSigned(-0.006, 2)).toBe("-0.01");
  });
});

describe("redundancyCost", () => {
  it("names what a redundant skill costs a run, and nothing when neither was measured", () => {
    expect(
      redundancyCost({ baseline_pass_rate: 0.9, tokens_delta: "+4000", time_seconds_delta: "+2.5" }),
    ).toBe("+4000 tokens and +2.5 s");
    expect(redundancyCost({ baseline_pass_rate: 0.9 })).toBeUndefined();
  });
});

describe("evalLabel, plural, percent", () => {
  it("names an eval by its id, and by its name when it has one of its own", () => {
    expect(evalLabel(3, "Ocean")).toBe("Eval 3 (Ocean)");
    expect(evalLabel(3, "eval-3")).toBe("Eval 3");
    expect(evalLabel("a", undefined)).toBe("Eval a");
    expect(evalLabel(3, "")).toBe("Eval 3");
  });

  it("counts in the singular for one only", () => {
    expect(plural(1, "run")).toBe("1 run");
    expect(plural(0, "run")).toBe("0 runs");
    expect(plural(2, "run")).toBe("2 runs");
    expect(plural(2, "child", "children")).toBe("2 children");
  });

  it("rounds a rate to a whole percent", () => {
    expect(percent(0.875)).toBe("88%");
    expect(percent(1)).toBe("100%");
  });
});

describe("quoted", () => {
  it("flattens white space and cuts a long text with an ellipsis at the limit", () => {
    expect(quoted("  two\n\tlines  here ")).toBe('"two lines here"');
    expect(quoted("abcdef", 6)).toBe('"abcdef"');
    expect(quoted("abcdefg", 6)).toBe('"abcde…"');
    expect(quoted("x".repeat(121))).toBe(`"${"x".repeat(119)}…"`);
    expect(quoted("x".repeat(120))).toBe(`"${"x".repeat(120)}"`);
  });
});

describe("describeInterval", () => {
  it("gives the estimate and the interval, and says when it includes zero", () => {
    const d = { estimate: 0.42, ci_low: 0.2, ci_high: 0.61, confidence: 0.95, distinguishable: true };
    expect(describeInterval(d)).toBe("+0.42 (95% CI +0.20 to +0.61)");
    expect(describeInterval({ ...d, ci_low: -0.1, confidence: 0.9, distinguishable: false })).toBe(
      "+0.42 — not distinguishable from noise (90% CI -0.10 to +0.61)",
    );
  });
});

describe("describeVerdict", () => {
  it("says each verdict with its floor", () => {
    expect(describeVerdict({ verdict: "helps", floor: 0.05 })).toBe("helps (the whole interval above +0.05)");
    expect(describeVerdict({ verdict: "hurts", floor: 0.1 })).toBe("hurts (the whole interval below -0.10)");
    expect(describeVerdict({ verdict: "no effect", floor: 0.05 })).toBe(
      "no effect (the whole interval within ±0.05)",
    );
    expect(describeVerdict({ verdict: "inconclusive", floor: 0.05, runs_to_decide: 12 })).toBe(
      "inconclusive (the interval straddles ±0.05; about 12 runs per configuration would likely decide it)",
    );
    expect(describeVerdict({ verdict: "inconclusive", floor: 0.05 })).toBe(
      "inconclusive (the interval straddles ±0.05, and the estimate sits on it: more runs are unlikely to decide it)",
    );
  });

  it("names the A/A spread when it set the floor", () => {
    expect(describeVerdict({ verdict: "helps", floor: 0.25, noise_spread: 0.25 })).toBe(
      "helps (the whole interval above +0.25); the floor is the A/A spread of 0.25 measured by `skillgym noise`: a smaller lift is not reported",
    );
  });
});

describe("describeRedundancy", () => {
  const head =
    "**Redundant on this model:** the baseline already passes 90% and the skill has no effect on any eval.";

  it("gives what the skill costs a run, in tokens and in time, where known", () => {
    expect(
      describeRedundancy({ baseline_pass_rate: 0.9, tokens_delta: "+4000", time_seconds_delta: "+2.5" }),
    ).toBe(`${head} It costs +4000 tokens and +2.5 s a run.`);
    expect(describeRedundancy({ baseline_pass_rate: 0.9, tokens_delta: "+4000" })).toBe(
      `${head} It costs +4000 tokens a run.`,
    );
    expect(describeRedundancy({ baseline_pass_rate: 0.9, time_seconds_delta: "+2.5" })).toBe(
      `${head} It costs +2.5 s a run.`,
    );
    expect(describeRedundancy({ baseline_pass_rate: 0.9 })).toBe(head);
  });
});
