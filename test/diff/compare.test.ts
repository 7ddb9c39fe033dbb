import { describe, expect, it } from "vitest";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { compareEvals } from "../../src/diff/compare-evals.js";
import { compareQueries } from "../../src/diff/compare-queries.js";
import { twoSampleBootstrap } from "../../src/diff/two-sample.js";

const options = { seed: 1, resamples: 2000, confidence: 0.95 };

describe("compareEvals", () => {
  it("gives each matched eval its rates, runs, interval and change, and the whole its own", () => {
    const result = compareEvals(
      [
        { id: 1, rates: [0.5, 1, 0.5, 1, 0.5, 1] },
        { id: 2, name: "two", rates: [1, 0.5] },
        { id: 3, rates: [] },
      ],
      [
        { id: 1, rates: [1, 1, 0.5, 1, 1, 0.5] },
        { id: 2, rates: [1, 1] },
        { id: 3, rates: [1, 1] },
      ],
      0.05,
      options,
    );
    expect(result).toEqual({
      evals: [
        {
          eval_id: 1,
          a_pass_rate: 0.75,
          b_pass_rate: 0.8333,
          a_runs: 6,
          b_runs: 6,
          difference: { estimate: 0.0833, ci_low: -0.1667, ci_high: 0.3333, confidence: 0.95 },
          // The estimate sits too near the floor for any likely number of runs to decide it.
          change: "inconclusive",
        },
        {
          eval_id: 2,
          // A's name when B's eval has none.
          eval_name: "two",
          a_pass_rate: 0.75,
          b_pass_rate: 1,
          a_runs: 2,
          b_runs: 2,
          difference: { estimate: 0.25, ci_low: 0, ci_high: 0.5, confidence: 0.95 },
          change: "inconclusive",
          runs_to_decide: 4,
        },
        {
          eval_id: 3,
          a_pass_rate: null,
          b_pass_rate: 1,
          a_runs: 0,
          b_runs: 2,
          difference: null,
          change: "inconclusive",
          note: "fewer than 2 graded with_skill runs on a side: no interval",
        },
      ],
      only_in_a: [],
      only_in_b: [],
      // Evals 1 and 2 together; the runs to decide it are counted from the eval with the most runs a side (6).
      overall: {
        difference: { estimate: 0.1667, ci_low: -0.0417, ci_high: 0.4167, confidence: 0.95 },
        change: "inconclusive",
        runs_to_decide: 24,
      },
    });
  });

  it("counts the runs to decide from the side with fewer runs", () => {
    const result = compareEvals(
      [{ id: 1, rates: [0.5, 1] }],
      [{ id: 1, rates: [1, 1, 0.5, 1, 1, 1] }],
      0.05,
      options,
    );
    expect(result.evals[0]).toMatchObject({
      a_runs: 2,
      b_runs: 6,
      change: "inconclusive",
      runs_to_decide: 17,
    });
    expect(result.overall).toMatchObject({ change: "inconclusive", runs_to_decide: 17 });
  });

  it("matches a numeric id with the same id written as text", () => {
    const result = compareEvals([{ id: 7, rates: [1, 1] }], [{ id: "7", rates: [1, 1] }], 0.05, options);
    expect(result.evals.map((e) => [e.eval_id, e.change])).toEqual([[7, "unchanged"]]);
    expect([result.only_in_a, result.only_in_b]).toEqual([[], []]);
  });

  it("has no whole when nothing is matched", () => {
    expect(compareEvals([{ id: 1, rates: [1, 1] }], [{ id: 2, rates: [1, 1] }], 0.05, options)).toEqual({
      evals: [],
      only_in_a: [1],
      only_in_b: [2],
      overall: null,
    });
  });
});

function results(rows: [string, boolean, number | null, boolean | null][]): TriggerResults {
  return {
    skill_name: "demo",
    description: "d",
    results: rows.map(([query, should_trigger, trigger_rate, pass]) => ({
      query,
      should_trigger,
      trigger_rate,
      triggers: 0,
      runs: 3,
      errors: 0,
      pass,
    })),
    summary: {
      total: rows.length,
      passed: 0,
      failed: 0,
      errors: 0,
      precision: null,
      recall: null,
      f1: null,
      accuracy: null,
    },
  };
}

describe("compareQueries", () => {
  it("matches queries by their text, in A's order, with B's should_trigger", () => {
    const a = results([
      ["make a chart", true, 1, true],
      ["gone", false, 0, true],
      ["tell a joke", false, 0.6667, false],
    ]);
    const b = results([
      ["tell a joke", false, 0, true],
      ["make a chart", false, 0.3333, true],
      ["added", true, 1, true],
    ]);
    expect(compareQueries(a, b)).toEqual({
      queries: [
        {
          query: "make a chart",
          should_trigger: false,
          a_rate: 1,
          b_rate: 0.3333,
          a_pass: true,
          b_pass: true,
          change: "unchanged",
        },
        {
          query: "tell a joke",
          should_trigger: false,
          a_rate: 0.6667,
          b_rate: 0,
          a_pass: false,
          b_pass: true,
          change: "improved",
        },
      ],
      queries_only_in_a: ["gone"],
      queries_only_in_b: ["added"],
    });
  });

  it("compares nothing when either iteration ran no trigger queries", () => {
    const a = results([["make a chart", true, 1, true]]);
    expect(compareQueries(a, undefined)).toEqual({
      queries: [],
      queries_only_in_a: ["make a chart"],
      queries_only_in_b: [],
    });
    expect(compareQueries(undefined, a)).toEqual({
      queries: [],
      queries_only_in_a: [],
      queries_only_in_b: ["make a chart"],
    });
    expect(compareQueries(undefined, undefined)).toEqual({
      queries: [],
      queries_only_in_a: [],
      queries_only_in_b: [],
    });
  });
});

describe("twoSampleBootstrap's rounding", () => {
  it("writes a difference too small to show as 0, never -0", () => {
    const d = twoSampleBootstrap([{ a: [0.00002, 0.00002], b: [0, 0] }], options);
    expect(Object.is(d?.estimate, 0)).toBe(true);
    expect(Object.is(d?.ci_low, 0)).toBe(true);
    expect(Object.is(d?.ci_high, 0)).toBe(true);
  });
});
