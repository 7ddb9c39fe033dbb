import { describe, expect, it } from "vitest";
import {
  Analysis,
  Benchmark,
  Comparison,
  EvalsFile,
  Grading,
  History,
  Metrics,
  Timing,
} from "../../src/contracts/index.js";
import {
  seedAnalysis,
  seedBenchmark,
  seedComparison,
  seedEvals,
  seedGrading,
  seedHistory,
  seedMetrics,
  seedTiming,
} from "./seed-examples.js";

describe("the seed's examples (skill-creator's schemas.md)", () => {
  const unchanged = [
    ["history.json", History, seedHistory],
    ["grading.json", Grading, seedGrading],
    ["metrics.json", Metrics, seedMetrics],
    ["timing.json", Timing, seedTiming],
    ["benchmark.json", Benchmark, seedBenchmark],
    ["comparison.json", Comparison, seedComparison],
    ["analysis.json", Analysis, seedAnalysis],
  ] as const;

  it.each(unchanged)("%s parses and keeps every field", (_name, schema, example) => {
    const parsed = schema.parse(example);
    expect(parsed).toEqual(example);
  });

  it("evals.json parses, with files and checks defaulted", () => {
    const parsed = EvalsFile.parse(seedEvals);
    expect(parsed.evals[0]).toEqual({ ...seedEvals.evals[0], checks: [], numericId: 1 });
    expect(parsed.skill_name).toBe("example-skill");
  });

  it("keeps keys that a newer tool added", () => {
    const parsed = Grading.parse({
      ...seedGrading,
      grader_model: "x",
      summary: { ...seedGrading.summary, n: 1 },
    });
    expect(parsed).toMatchObject({ grader_model: "x", summary: { n: 1 } });
  });
});
