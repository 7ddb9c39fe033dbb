import { afterEach, describe, expect, it } from "vitest";
import { buildBenchmark } from "../../src/bench/build-benchmark.js";
import { noiseOf } from "../../src/bench/noise.js";
import { readIteration } from "../../src/bench/read-iteration.js";
import { renderBenchmarkMarkdown } from "../../src/bench/render-markdown.js";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { NoiseReport } from "../../src/contracts/noise.js";
import { type FixtureRun, iterationRecord, makeIteration } from "./iteration-fixture.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const check = "Does the job";

// Two arms of one skill: with_skill and old_skill, each run passing (y) or failing (n).
async function armsOf(patterns: Record<number, [string, string]>, baseline = "old_skill") {
  const runs = Object.entries(patterns).flatMap(([id, [a, b]]) =>
    [...a].flatMap((p, i): FixtureRun[] => [
      { eval: Number(id), configuration: "with_skill", run: i + 1, results: { [check]: p === "y" } },
      {
        eval: Number(id),
        configuration: baseline as "old_skill",
        run: i + 1,
        results: { [check]: b[i] === "y" },
      },
    ]),
  );
  const made = await makeIteration({
    record: iterationRecord({
      plan: {
        evals: Object.keys(patterns).map(Number),
        configurations: ["with_skill", baseline],
        runs_per_configuration: patterns[1]![0].length,
      },
    }),
    evals: Object.keys(patterns).map((id) => ({ id: Number(id), assertions: [check] })),
    runs,
  });
  cleanups.push(made.cleanup);
  return made.dir;
}

const context = {
  iterationDir: "/ws/noise/iteration-1",
  effectFloor: 0.05,
  measuredAt: "2026-11-26T00:00:00Z",
};

describe("noiseOf", () => {
  it("finds no spread between two identical, steady arms", async () => {
    const benchmark = buildBenchmark(
      await readIteration(await armsOf({ 1: ["yyy", "yyy"], 2: ["nnn", "nnn"] })),
    );
    const report = NoiseReport.parse(noiseOf(benchmark, context));
    expect(report.spread).toBe(0);
    expect(report.false_calls).toBe(0);
    expect(report.false_call_rate).toBe(0);
    expect(report.evals.map((e) => e.verdict)).toEqual(["no effect", "no effect"]);
  });

  it("measures the spread of arms that differ by chance, and counts a false call", async () => {
    const benchmark = buildBenchmark(
      await readIteration(await armsOf({ 1: ["yyyy", "nnnn"], 2: ["ynyn", "nyny"] })),
    );
    const report = noiseOf(benchmark, context)!;
    // Eval 1's identical arms differed by a whole pass rate: called helps, a false call.
    expect(report.evals[0]).toMatchObject({ ci_low: 1, ci_high: 1, spread: 1, verdict: "helps" });
    expect(report.evals[1]!.verdict).toBe("inconclusive");
    expect(report.false_calls).toBe(1);
    expect(report.false_call_rate).toBe(0.5);
    expect(report.spread).toBe(
      Math.max(
        Math.abs(benchmark.statistics!.delta_pass_rate.ci_low),
        Math.abs(benchmark.statistics!.delta_pass_rate.ci_high),
      ),
    );
  });
});

describe("a verdict held against the A/A spread", () => {
  it("raises the floor to a wider spread, and says so", async () => {
    const dir = await armsOf({ 1: ["yyyy", "nnny"] }, "without_skill");
    const plain = buildBenchmark(await readIteration(dir));
    expect(plain.statistics?.verdict?.verdict).toBe("helps");
    const noisy = buildBenchmark(await readIteration(dir), { noiseSpread: 0.3 });
    expect(Benchmark.parse(noisy)).toEqual(noisy);
    expect(noisy.statistics?.verdict).toMatchObject({
      verdict: "inconclusive",
      floor: 0.3,
      noise_spread: 0.3,
    });
    expect(renderBenchmarkMarkdown(noisy)).toContain("the floor is the A/A spread of 0.30");
  });

  it("keeps the effect floor when the spread is narrower", async () => {
    const dir = await armsOf({ 1: ["yyyy", "nnny"] }, "without_skill");
    const quiet = buildBenchmark(await readIteration(dir), { noiseSpread: 0.01 });
    expect(quiet.statistics?.verdict).toEqual({ verdict: "helps", floor: 0.05 });
  });
});
