import { describe, expect, it } from "vitest";
import { noiseOf } from "../../src/bench/noise.js";
import { Benchmark } from "../../src/contracts/benchmark.js";

const interval = (ci_low: number, ci_high: number) => ({
  estimate: (ci_low + ci_high) / 2,
  ci_low,
  ci_high,
  confidence: 0.95,
  distinguishable: ci_low > 0 || ci_high < 0,
});

const perEval = (eval_id: number, delta: ReturnType<typeof interval> | null, eval_name?: string) => ({
  eval_id,
  ...(eval_name ? { eval_name } : {}),
  with_skill_pass_rate: 0.5,
  baseline_pass_rate: 0.5,
  delta_pass_rate: delta,
});

function benchmark(statistics?: object): Benchmark {
  return Benchmark.parse({
    metadata: {
      skill_name: "s",
      timestamp: "2026-01-01T00:00:00Z",
      evals_run: [1],
      runs_per_configuration: 4,
    },
    runs: [],
    run_summary: {},
    ...(statistics ? { statistics } : {}),
  });
}

const context = {
  iterationDir: "/ws/noise/iteration-1",
  effectFloor: 0.1,
  measuredAt: "2026-11-26T00:00:00Z",
};

describe("noiseOf, from a benchmark", () => {
  it("reports each eval's interval, spread and verdict, and the false calls among evals with one", () => {
    const report = noiseOf(
      benchmark({
        delta_pass_rate: interval(-0.4, 0.2),
        per_eval: [
          perEval(1, interval(-0.3, -0.2), "Ocean"),
          perEval(2, interval(-0.05, 0.05)),
          perEval(3, interval(0.15, 0.5)),
          perEval(4, null),
        ],
      }),
      context,
    );
    expect(report).toEqual({
      measured_at: "2026-11-26T00:00:00Z",
      iteration_dir: "/ws/noise/iteration-1",
      runs_per_arm: 4,
      effect_floor: 0.1,
      evals: [
        { eval_id: 1, eval_name: "Ocean", ci_low: -0.3, ci_high: -0.2, spread: 0.3, verdict: "hurts" },
        { eval_id: 2, ci_low: -0.05, ci_high: 0.05, spread: 0.05, verdict: "no effect" },
        { eval_id: 3, ci_low: 0.15, ci_high: 0.5, spread: 0.5, verdict: "helps" },
        { eval_id: 4, ci_low: null, ci_high: null, spread: null, verdict: null },
      ],
      spread: 0.4,
      false_calls: 2,
      false_call_rate: 0.6667,
    });
  });

  it("has no false-call rate when no eval has an interval, and nothing without an overall interval", () => {
    const report = noiseOf(benchmark({ delta_pass_rate: interval(0, 0.1) }), context);
    expect(report).toMatchObject({ evals: [], spread: 0.1, false_calls: 0, false_call_rate: null });
    expect(noiseOf(benchmark(), context)).toBeUndefined();
  });
});
