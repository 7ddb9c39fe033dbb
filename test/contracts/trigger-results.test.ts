import { describe, expect, it } from "vitest";
import { TriggerResults } from "../../src/contracts/index.js";
import { issueMessages, issuePaths } from "./issues.js";

// What skill-creator's scripts/run_eval.py prints.
const skillCreatorOutput = {
  skill_name: "pdf",
  description: "Fill PDF forms. Use when the user asks to fill, read or merge PDFs.",
  results: [
    { query: "fill this form", should_trigger: true, trigger_rate: 1.0, triggers: 3, runs: 3, pass: true },
    {
      query: "what time is it",
      should_trigger: false,
      trigger_rate: 0.3333333333333333,
      triggers: 1,
      runs: 3,
      pass: true,
    },
  ],
  summary: { total: 2, passed: 2, failed: 0 },
};

const ours = {
  skill_name: "pdf",
  description: "Fill PDF forms.",
  threshold: 0.5,
  runs_per_query: 3,
  simulated: true,
  model: "sim-1",
  results: [
    {
      query: "merge these pdfs",
      should_trigger: true,
      trigger_rate: 0.5,
      triggers: 1,
      runs: 3,
      errors: 1,
      pass: true,
      stolen_by: { "doc-tools": 1 },
    },
    {
      query: "hello",
      should_trigger: false,
      trigger_rate: null,
      triggers: 0,
      runs: 3,
      errors: 3,
      pass: null,
    },
  ],
  summary: { total: 2, passed: 1, failed: 0, errors: 1, precision: 1, recall: 1, f1: 1, accuracy: 1 },
};

describe("trigger-results.json", () => {
  it("reads skill-creator's output, filling our fields with 0 and null", () => {
    const parsed = TriggerResults.parse(skillCreatorOutput);
    expect(parsed.results[0]?.errors).toBe(0);
    expect(parsed.summary).toEqual({
      total: 2,
      passed: 2,
      failed: 0,
      errors: 0,
      precision: null,
      recall: null,
      f1: null,
      accuracy: null,
    });
  });

  it("parses ours, with a query whose every run errored", () => {
    expect(TriggerResults.parse(ours)).toEqual(ours);
  });

  it("rejects more triggers and errors than runs", () => {
    const bad = { ...ours, results: [{ ...ours.results[0]!, triggers: 3 }] };
    expect(issuePaths(TriggerResults, bad)).toEqual(["results[0].triggers"]);
  });

  it("rejects a summary whose counts do not add up", () => {
    expect(issuePaths(TriggerResults, { ...ours, summary: { ...ours.summary, total: 5 } })).toEqual([
      "summary.total",
    ]);
  });

  it("says which counts exceed the runs and which do not add up", () => {
    const bad = { ...ours, results: [{ ...ours.results[0]!, triggers: 3 }] };
    expect(issueMessages(TriggerResults, bad)).toEqual(["triggers (3) plus errors (1) exceed runs (3)"]);
    expect(issueMessages(TriggerResults, { ...ours, summary: { ...ours.summary, total: 5 } })).toEqual([
      "must equal passed + failed + errors (1 + 0 + 1)",
    ]);
  });

  it("rejects a trigger_rate above 1, a string pass and a zero stolen_by count", () => {
    const bad = {
      ...ours,
      results: [{ ...ours.results[0]!, trigger_rate: 1.5, pass: "yes", stolen_by: { other: 0 } }],
    };
    expect(issuePaths(TriggerResults, bad)).toEqual([
      "results[0].trigger_rate",
      "results[0].pass",
      "results[0].stolen_by.other",
    ]);
  });
});
