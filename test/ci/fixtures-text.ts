import type { RunData } from "../../src/bench/model.js";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";

export function run(partial: Partial<RunData>): RunData {
  return { evalId: 1, evalName: "tidy", configuration: "with_skill", runNumber: 1, problems: [], ...partial };
}

export function grading(expectations: { text: string; passed: boolean; evidence: string }[]) {
  const failed = expectations.filter((e) => !e.passed).length;
  return {
    expectations,
    summary: { passed: expectations.length - failed, failed, total: expectations.length, pass_rate: 0 },
  };
}

/** One run of every kind a report tells apart, over two configurations. */
export const runs: RunData[] = [
  run({
    grading: grading([{ text: "keeps names", passed: true, evidence: "ok" }]),
    timing: { total_duration_seconds: 1.25 },
  }),
  run({
    runNumber: 2,
    grading: grading([
      { text: "keeps names", passed: true, evidence: "ok" },
      { text: "sorts imports", passed: false, evidence: "a before b" },
      { text: "adds <tests>", passed: false, evidence: "none" },
    ]),
    timing: { total_duration_seconds: 2.5 },
  }),
  run({ runNumber: 3, exclusion: { kind: "errored", reason: "overloaded", message: "529 from the API" } }),
  run({
    runNumber: 4,
    exclusion: { kind: "unreadable", reason: "unreadable", message: "timing.json is not JSON" },
  }),
  run({ runNumber: 5, exclusion: { kind: "not_run", reason: "not_run", message: "never started" } }),
  run({ runNumber: 6, timing: { total_duration_seconds: 0.5 } }),
  run({ configuration: "without_skill", exclusion: { kind: "ungraded", reason: "ungraded", message: "" } }),
];

export function triggers(threshold?: number): TriggerResults {
  return {
    skill_name: "tidy",
    description: "d",
    ...(threshold === undefined ? {} : { threshold }),
    results: [
      {
        query: "tidy | this\nfile",
        should_trigger: true,
        trigger_rate: 0.25,
        triggers: 1,
        runs: 5,
        errors: 1,
        pass: false,
      },
      { query: "hello", should_trigger: false, trigger_rate: 0, triggers: 0, runs: 2, errors: 0, pass: true },
      {
        query: "lint 100%",
        should_trigger: false,
        trigger_rate: 1,
        triggers: 2,
        runs: 2,
        errors: 0,
        pass: false,
        stolen_by: { eslint: 1, prettier: 1 },
      },
      {
        query: "broken",
        should_trigger: true,
        trigger_rate: null,
        triggers: 0,
        runs: 2,
        errors: 2,
        pass: null,
      },
      {
        query: "no rate",
        should_trigger: false,
        trigger_rate: null,
        triggers: 0,
        runs: 3,
        errors: 3,
        pass: false,
      },
    ],
    summary: {
      total: 5,
      passed: 1,
      failed: 3,
      errors: 1,
      precision: null,
      recall: 0,
      f1: null,
      accuracy: 0.333,
    },
  };
}
