import { describe, expect, it } from "vitest";
import type { EvalData, RunData } from "../../src/bench/model.js";
import { pairedDelta } from "../../src/bench/paired-delta.js";
import { effectVerdict, runsToDecide } from "../../src/bench/verdict.js";
import { grading } from "./iteration-fixture.js";

const options = { seed: 1, resamples: 200, confidence: 0.95 };

function run(
  evalId: number | string,
  configuration: RunData["configuration"],
  runNumber: number,
  passed: boolean[],
) {
  const results = Object.fromEntries(passed.map((p, i) => [`check ${i}`, p]));
  return {
    evalId,
    evalName: `e${evalId}`,
    configuration,
    runNumber,
    grading: grading(results),
    problems: [],
  } as RunData;
}

const evals: EvalData[] = [
  { id: 1, name: "one", folder: "eval-1" },
  { id: 2, name: "two", folder: "eval-2" },
  { id: 3, name: "three", folder: "eval-3" },
];

describe("pairedDelta", () => {
  it("pairs by eval and run number, in run order, and means each configuration's graded rates", () => {
    const runs = [
      run(1, "with_skill", 3, [true, true, true]),
      run(1, "with_skill", 1, [true, false, false]),
      run(1, "without_skill", 1, [false, false, false]),
      run(1, "with_skill", 2, [false, false, false]),
      run(1, "without_skill", 3, [true, false, false]),
      // Another eval's runs, and one left out, take no part in eval 1.
      run(2, "without_skill", 2, [true, true, true]),
      {
        ...run(1, "without_skill", 2, [true, true, true]),
        exclusion: { kind: "errored", reason: "timeout", message: "timeout" },
      } as RunData,
      // An old_skill run is not the baseline here.
      run(1, "old_skill", 2, [true, true, true]),
    ];
    const d = pairedDelta(evals, runs, "without_skill", options);
    const one = d.perEval[0]!;
    expect(one).toMatchObject({
      evalId: 1,
      evalName: "one",
      // with_skill 1/3, 0, 1 → 0.4444; without_skill 0 and 1/3 → 0.1667
      withSkillPassRate: 0.4444,
      baselinePassRate: 0.1667,
    });
    // Run 1: 1/3 − 0; run 3: 1 − 1/3. Run 2 has no graded partner.
    expect(one.differences).toEqual([1 / 3, 1 - 1 / 3]);
    expect(one.delta).toMatchObject({ estimate: 0.5, pairs: 2 });
    expect(d.perEval[1]).toMatchObject({
      evalId: 2,
      withSkillPassRate: null,
      baselinePassRate: 1,
      differences: [],
      delta: null,
    });
    expect(d.perEval[2]).toMatchObject({ withSkillPassRate: null, baselinePassRate: null, delta: null });
    expect(d).toMatchObject({ baseline: "without_skill", pairs: 2, pairedEvals: 1 });
    expect(d.overall).toEqual(one.delta);
  });

  it("matches an eval's runs by its id as text", () => {
    const runs = [run("1", "with_skill", 1, [true]), run("1", "old_skill", 1, [false])];
    const d = pairedDelta(
      [evals[0]!],
      [...runs, run("1", "with_skill", 2, [true]), run("1", "old_skill", 2, [true])],
      "old_skill",
      options,
    );
    expect(d.perEval[0]?.differences).toEqual([1, 0]);
    expect(d.overall).toMatchObject({ estimate: 0.5, pairs: 2 });
  });
});

describe("the verdict on its edges", () => {
  const at = (estimate: number, ci_low: number, ci_high: number) => ({ estimate, ci_low, ci_high });

  it("gives no number of runs for an interval of no width", () => {
    expect(runsToDecide(at(0.1, 0.1, 0.1), 0.05, 3)).toBeUndefined();
  });

  it("gives up to 25 times today's runs, not more", () => {
    // Half-width 1.25 over a margin of 0.25: 5² = 25 times the 4 runs.
    expect(runsToDecide(at(0.5, -0.75, 1.75), 0.25, 4)).toBe(100);
    expect(runsToDecide(at(0.5, -0.75, 1.875), 0.25, 4)).toBeUndefined();
  });

  it("measures the margin from the floor on the estimate's side, below zero too", () => {
    // Estimate −0.15: 0.1 from the floor at −0.05; half-width 0.2: 4 times the 3 runs.
    expect(runsToDecide(at(-0.15, -0.35, 0.05), 0.05, 3)).toBe(12);
  });

  it("leaves the number out of an inconclusive verdict that more runs are unlikely to decide", () => {
    // Not even as a key with no value.
    expect(effectVerdict(at(0.05, -0.2, 0.3), 0.05, 3)).toStrictEqual({
      verdict: "inconclusive",
      floor: 0.05,
    });
    expect(effectVerdict(at(0, -0.02, 0.01), 0.05, 3)).toEqual({ verdict: "no effect", floor: 0.05 });
  });
});
