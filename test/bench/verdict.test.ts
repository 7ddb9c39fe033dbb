import { afterEach, describe, expect, it } from "vitest";
import { buildBenchmark } from "../../src/bench/build-benchmark.js";
import { readIteration } from "../../src/bench/read-iteration.js";
import { renderBenchmarkMarkdown } from "../../src/bench/render-markdown.js";
import { effectVerdict, isRedundant, runsToDecide, verdictOf } from "../../src/bench/verdict.js";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { type FixtureIteration, type FixtureRun, makeIteration } from "./iteration-fixture.js";

const at = (estimate: number, ci_low: number, ci_high: number) => ({ estimate, ci_low, ci_high });

describe("verdictOf", () => {
  it("calls an interval wholly above +floor helps, wholly below -floor hurts", () => {
    expect(verdictOf(at(0.3, 0.1, 0.5), 0.05)).toBe("helps");
    expect(verdictOf(at(-0.3, -0.5, -0.1), 0.05)).toBe("hurts");
  });

  it("calls an interval wholly within ±floor no effect, an equivalence", () => {
    expect(verdictOf(at(0.01, -0.04, 0.04), 0.05)).toBe("no effect");
    expect(verdictOf(at(0, 0, 0), 0.05)).toBe("no effect");
  });

  it("calls an interval that straddles a floor inconclusive, on either side", () => {
    expect(verdictOf(at(0.1, 0.02, 0.3), 0.05)).toBe("inconclusive");
    expect(verdictOf(at(-0.1, -0.3, -0.02), 0.05)).toBe("inconclusive");
    expect(verdictOf(at(0, -0.3, 0.3), 0.05)).toBe("inconclusive");
  });

  it("holds the interval against the floor it is given, not zero", () => {
    // Above zero yet not above a floor of 0.1: distinguishable from no change, but not a lift worth the name.
    expect(verdictOf(at(0.1, 0.06, 0.14), 0.05)).toBe("helps");
    expect(verdictOf(at(0.1, 0.06, 0.14), 0.1)).toBe("inconclusive");
    expect(verdictOf(at(0.1, 0.06, 0.14), 0.2)).toBe("no effect");
    expect(verdictOf(at(-0.1, -0.14, -0.06), 0.05)).toBe("hurts");
    expect(verdictOf(at(-0.1, -0.14, -0.06), 0.2)).toBe("no effect");
  });

  it("decides the boundaries: an end on the floor is within it, not beyond it", () => {
    expect(verdictOf(at(0.2, 0.05, 0.3), 0.05)).toBe("inconclusive");
    expect(verdictOf(at(0.2, 0.0501, 0.3), 0.05)).toBe("helps");
    expect(verdictOf(at(-0.2, -0.3, -0.05), 0.05)).toBe("inconclusive");
    expect(verdictOf(at(-0.2, -0.3, -0.0501), 0.05)).toBe("hurts");
    expect(verdictOf(at(0, -0.05, 0.05), 0.05)).toBe("no effect");
    expect(verdictOf(at(0, -0.0501, 0.05), 0.05)).toBe("inconclusive");
    expect(verdictOf(at(0, -0.05, 0.0501), 0.05)).toBe("inconclusive");
  });

  it("with a floor of zero, is the plain question whether the interval excludes zero", () => {
    expect(verdictOf(at(0.1, 0.01, 0.2), 0)).toBe("helps");
    expect(verdictOf(at(0.1, 0, 0.2), 0)).toBe("inconclusive");
    expect(verdictOf(at(0, 0, 0), 0)).toBe("no effect");
  });
});

describe("runsToDecide", () => {
  it("scales today's runs by the square of half-width over the margin to the floor", () => {
    // Half-width 0.2, estimate 0.25, floor 0.05: margin 0.2 → the same width would do; at least one more run.
    expect(runsToDecide(at(0.25, 0.05, 0.45), 0.05, 3)).toBe(4);
    // Half-width 0.2, estimate 0.15, margin 0.1: (0.2 / 0.1)² = 4 times the 3 runs.
    expect(runsToDecide(at(0.15, -0.05, 0.35), 0.05, 3)).toBe(12);
    // Toward no effect: estimate 0.01, margin 0.04, half-width 0.08: 4 × 2 runs.
    expect(runsToDecide(at(0.01, -0.07, 0.09), 0.05, 2)).toBe(8);
  });

  it("gives no number when the estimate sits on the floor or more runs would be out of reach", () => {
    expect(runsToDecide(at(0.05, -0.2, 0.3), 0.05, 3)).toBeUndefined();
    expect(runsToDecide(at(0.06, -0.5, 0.62), 0.05, 3)).toBeUndefined();
  });

  it("is carried by an inconclusive verdict only", () => {
    expect(effectVerdict(at(0.15, -0.05, 0.35), 0.05, 3)).toEqual({
      verdict: "inconclusive",
      floor: 0.05,
      runs_to_decide: 12,
    });
    expect(effectVerdict(at(0.3, 0.1, 0.5), 0.05, 3)).toEqual({ verdict: "helps", floor: 0.05 });
  });
});

describe("isRedundant", () => {
  it("needs no effect overall and on every eval, and a baseline that already passes", () => {
    const none = { overall: "no effect" as const, perEval: ["no effect" as const], baselinePassRate: 0.9 };
    expect(isRedundant(none)).toBe(true);
    expect(isRedundant({ ...none, baselinePassRate: 0.8 })).toBe(true);
    expect(isRedundant({ ...none, baselinePassRate: 0.79 })).toBe(false);
    expect(isRedundant({ ...none, overall: "inconclusive" })).toBe(false);
    expect(isRedundant({ ...none, perEval: ["no effect", "helps"] })).toBe(false);
    expect(isRedundant({ ...none, baselinePassRate: undefined })).toBe(false);
  });
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function benchmarkOf(fixture: FixtureIteration, effectFloor?: number) {
  const iteration = await makeIteration(fixture);
  cleanups.push(iteration.cleanup);
  const benchmark = buildBenchmark(await readIteration(iteration.dir), {
    timestamp: "2026-02-01T00:00:00Z",
    ...(effectFloor !== undefined ? { effectFloor } : {}),
  });
  expect(Benchmark.parse(benchmark)).toEqual(benchmark);
  return benchmark;
}

const check = "Does the job";

// Each run passes or fails its one assertion, as the pattern says (one letter a run: y passes, n fails).
function runsOf(evalId: number, withSkill: string, baseline: string, tokens: [number, number]): FixtureRun[] {
  return [...withSkill].flatMap((w, i): FixtureRun[] => [
    {
      eval: evalId,
      configuration: "with_skill",
      run: i + 1,
      results: { [check]: w === "y" },
      tokens: tokens[0],
    },
    {
      eval: evalId,
      configuration: "without_skill",
      run: i + 1,
      results: { [check]: baseline[i] === "y" },
      tokens: tokens[1],
    },
  ]);
}

describe("verdicts in benchmark.json and benchmark.md", () => {
  it("says helps for a clear lift on every eval, per eval and for the skill", async () => {
    const benchmark = await benchmarkOf({
      evals: [
        { id: 1, assertions: [check] },
        { id: 2, assertions: [check] },
      ],
      runs: [...runsOf(1, "yyy", "nnn", [3000, 1000]), ...runsOf(2, "yyy", "nnn", [3000, 1000])],
    });
    expect(benchmark.statistics?.verdict).toEqual({ verdict: "helps", floor: 0.05 });
    expect(benchmark.statistics?.per_eval?.map((e) => e.verdict?.verdict)).toEqual(["helps", "helps"]);
    expect(benchmark.statistics?.redundant).toBeUndefined();
    const md = renderBenchmarkMarkdown(benchmark);
    expect(md).toContain("**Verdict for the skill:** helps (the whole interval above +0.05).");
    expect(md).toMatch(/\| Eval 1 \| 1\.00 \| 0\.00 \| \+1\.00 \(95% CI \+1\.00 to \+1\.00\) \| helps \|/);
  });

  it("calls a skill that changes nothing while the baseline passes redundant, with its cost", async () => {
    const benchmark = await benchmarkOf({
      evals: [
        { id: 1, assertions: [check] },
        { id: 2, assertions: [check] },
      ],
      runs: [...runsOf(1, "yyy", "yyy", [5000, 1000]), ...runsOf(2, "yyy", "yyy", [5000, 1000])],
    });
    expect(benchmark.statistics?.verdict?.verdict).toBe("no effect");
    expect(benchmark.statistics?.redundant).toEqual({
      baseline_pass_rate: 1,
      tokens_delta: "+4000",
      time_seconds_delta: expect.any(String),
    });
    const md = renderBenchmarkMarkdown(benchmark);
    expect(md).toContain("**Redundant on this model:** the baseline already passes 100%");
    expect(md).toContain("+4000 tokens");
  });

  it("does not call a skill redundant when the baseline fails as often as the skill", async () => {
    const benchmark = await benchmarkOf({
      evals: [{ id: 1, assertions: [check] }],
      runs: runsOf(1, "nnn", "nnn", [2000, 1000]),
    });
    expect(benchmark.statistics?.verdict?.verdict).toBe("no effect");
    expect(benchmark.statistics?.redundant).toBeUndefined();
  });

  it("says inconclusive for a mixed eval and how many runs would likely decide it", async () => {
    const benchmark = await benchmarkOf({
      evals: [{ id: 1, assertions: [check] }],
      runs: runsOf(1, "yynyn", "nynny", [2000, 1000]),
    });
    const verdict = benchmark.statistics?.verdict;
    expect(verdict?.verdict).toBe("inconclusive");
    expect(verdict?.runs_to_decide).toBeGreaterThan(5);
    expect(renderBenchmarkMarkdown(benchmark)).toContain("**Verdict for the skill:** inconclusive");
  });

  it("holds the lift against the floor it is given", async () => {
    const fixture: FixtureIteration = {
      evals: [{ id: 1, assertions: [check] }],
      runs: runsOf(1, "yyyy", "nnny", [2000, 1000]),
    };
    const plain = await benchmarkOf(fixture);
    // Differences 1, 1, 1, 0: the interval runs from +0.25 to +1.00.
    expect(plain.statistics?.delta_pass_rate).toMatchObject({ ci_low: 0.25, ci_high: 1 });
    expect(plain.statistics?.verdict?.verdict).toBe("helps");
    const strict = await benchmarkOf(fixture, 0.3);
    expect(strict.statistics?.verdict).toMatchObject({ verdict: "inconclusive", floor: 0.3 });
  });
});
