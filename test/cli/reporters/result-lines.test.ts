import { describe, expect, it } from "vitest";
import { passRatesLine, pct, verdictLines, wallTimeLine } from "../../../src/cli/reporters/result-lines.js";
import type { BenchmarkStatistics, EffectVerdict } from "../../../src/contracts/benchmark.js";
import { benchmark } from "./records.js";

const delta = (estimate: number, ci_low: number, ci_high: number, distinguishable: boolean) => ({
  estimate,
  ci_low,
  ci_high,
  confidence: 0.95,
  distinguishable,
});

const withVerdict = (verdict: EffectVerdict, over: Partial<BenchmarkStatistics> = {}) =>
  benchmark({ statistics: { delta_pass_rate: delta(0, 0, 0, false), verdict, ...over } });

describe("pct", () => {
  it("rounds to a whole percent, n/a when unknown", () => {
    expect(pct(0.125)).toBe("13%");
    expect(pct(0)).toBe("0%");
    expect(pct(null)).toBe("n/a");
    expect(pct(undefined)).toBe("n/a");
  });
});

describe("passRatesLine", () => {
  it("gives the paired delta with its interval, signed, and whether it stands out of the noise", () => {
    expect(passRatesLine(benchmark({ statistics: { delta_pass_rate: delta(0.6, 0.4, 0.8, true) } }))).toBe(
      "evals: with_skill 90%, without_skill 30%, delta +0.60 (95% CI 0.40..0.80)",
    );
    expect(passRatesLine(benchmark({ statistics: { delta_pass_rate: delta(0, -0.1, 0.1, false) } }))).toBe(
      "evals: with_skill 90%, without_skill 30%, delta +0.00 (95% CI -0.10..0.10, not distinguishable from noise)",
    );
    expect(
      passRatesLine(benchmark({ statistics: { delta_pass_rate: delta(-0.25, -0.5, -0.05, true) } })),
    ).toBe("evals: with_skill 90%, without_skill 30%, delta -0.25 (95% CI -0.50..-0.05)");
  });

  it("falls back to run_summary's delta without statistics", () => {
    const b = benchmark();
    b.run_summary.delta = { pass_rate: "+0.60", time_seconds: "+1.0", tokens: "+100" };
    expect(passRatesLine(b)).toBe("evals: with_skill 90%, without_skill 30%, delta +0.60");
  });

  it("gives with_skill alone without a baseline, and n/a for a configuration not run", () => {
    const b = benchmark();
    b.metadata.baseline_configuration = undefined;
    expect(passRatesLine(b)).toBe("evals: with_skill 90%");
    const old = benchmark();
    old.metadata.baseline_configuration = "old_skill";
    old.run_summary.with_skill = undefined;
    expect(passRatesLine(old)).toBe("evals: with_skill n/a, old_skill n/a, delta n/a");
  });
});

describe("verdictLines", () => {
  it("says each verdict at its floor", () => {
    expect(verdictLines(withVerdict({ verdict: "helps", floor: 0.05 }))).toEqual([
      "verdict: the skill helps (beyond ±0.05)",
    ]);
    expect(verdictLines(withVerdict({ verdict: "hurts", floor: 0.1 }))).toEqual([
      "verdict: the skill hurts (beyond ±0.10)",
    ]);
    expect(verdictLines(withVerdict({ verdict: "no effect", floor: 0.05 }))).toEqual([
      "verdict: the skill has no effect (within ±0.05)",
    ]);
  });

  it("says how many runs would decide an inconclusive verdict, or that its estimate sits on the floor", () => {
    expect(verdictLines(withVerdict({ verdict: "inconclusive", floor: 0.05, runs_to_decide: 12 }))).toEqual([
      "verdict: the skill is inconclusive at ±0.05 (about 12 runs per configuration would likely decide it)",
    ]);
    expect(verdictLines(withVerdict({ verdict: "inconclusive", floor: 0.05 }))).toEqual([
      "verdict: the skill is inconclusive at ±0.05 (its estimate sits on the floor)",
    ]);
  });

  it("adds that a skill is redundant, with what it costs a run when known", () => {
    const floor = { verdict: "no effect" as const, floor: 0.05 };
    expect(
      verdictLines(withVerdict(floor, { redundant: { baseline_pass_rate: 0.95, tokens_delta: "+4000" } })),
    ).toEqual([
      "verdict: the skill has no effect (within ±0.05)",
      "redundant on this model: the baseline already passes 95% and the skill has no effect (it costs +4000 tokens a run)",
    ]);
  });

  it("has no line with statistics but no verdict", () => {
    expect(verdictLines(benchmark({ statistics: { delta_pass_rate: delta(0.6, 0.4, 0.8, true) } }))).toEqual(
      [],
    );
  });
});

describe("wallTimeLine", () => {
  it("says the wall time at the concurrency, and whether the pace was measured", () => {
    const plan = { wallSeconds: 3725, concurrency: 4, unitSeconds: { agentRun: 120, triggerRun: 30 } };
    expect(wallTimeLine(plan)).toBe(
      "estimated wall time: about 1h02m at --concurrency 4 (2m00s per eval run, 30s per trigger run: defaults)",
    );
    expect(wallTimeLine({ ...plan, unitSeconds: { agentRun: 61, triggerRun: 7.4, measured: true } })).toBe(
      "estimated wall time: about 1h02m at --concurrency 4 (1m01s per eval run, 7s per trigger run: measured in this workspace)",
    );
  });
});
