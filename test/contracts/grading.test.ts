import { describe, expect, it } from "vitest";
import { Grading, Metrics, Timing } from "../../src/contracts/index.js";
import { issuePaths } from "./issues.js";

const minimal = {
  expectations: [
    {
      text: "out.txt exists",
      passed: true,
      evidence: "found out.txt (12 bytes)",
      source: "check",
      check_type: "file_exists",
    },
    {
      text: "The summary is accurate",
      passed: false,
      evidence: "It says 3 items; there are 4",
      source: "judge",
    },
  ],
  summary: { passed: 1, failed: 1, total: 2, pass_rate: 0.5 },
};

describe("grading.json", () => {
  it("needs only expectations and summary, and keeps our extras", () => {
    expect(Grading.parse(minimal)).toEqual(minimal);
  });

  it("fails without a summary", () => {
    expect(issuePaths(Grading, { expectations: [] })).toEqual(["summary"]);
  });

  it("fails on wrong types at their place", () => {
    const bad = {
      ...minimal,
      expectations: [{ text: "x", passed: "yes", evidence: "e" }],
      summary: { ...minimal.summary, pass_rate: 50 },
    };
    expect(issuePaths(Grading, bad)).toEqual(["expectations[0].passed", "summary.pass_rate"]);
  });

  it("rejects an unknown source or check type", () => {
    const bad = {
      ...minimal,
      expectations: [{ text: "x", passed: true, evidence: "e", source: "oracle", check_type: "vibes" }],
    };
    expect(issuePaths(Grading, bad)).toEqual(["expectations[0].source", "expectations[0].check_type"]);
  });

  it("requires evidence for each expectation, and a reason for each eval_feedback suggestion", () => {
    const bad = {
      ...minimal,
      expectations: [{ text: "x", passed: true }],
      eval_feedback: { suggestions: [{ assertion: "x" }], overall: "weak" },
    };
    expect(issuePaths(Grading, bad)).toEqual([
      "expectations[0].evidence",
      "eval_feedback.suggestions[0].reason",
    ]);
  });
});

describe("metrics.json and timing.json", () => {
  it("accept empty files: every field is optional", () => {
    expect(Metrics.parse({})).toEqual({});
    expect(Timing.parse({})).toEqual({});
  });

  it("timing keeps our token and cost extras", () => {
    const value = { input_tokens: 1200, output_tokens: 300, cost_usd: 0.0123, num_turns: 4, model: "sim" };
    expect(Timing.parse(value)).toEqual(value);
  });

  it("reject negative and fractional counts", () => {
    expect(issuePaths(Metrics, { tool_calls: { Read: -1 }, total_tool_calls: 1.5 })).toEqual([
      "tool_calls.Read",
      "total_tool_calls",
    ]);
    expect(issuePaths(Timing, { duration_ms: -3, cost_usd: "1" })).toEqual(["duration_ms", "cost_usd"]);
  });
});
