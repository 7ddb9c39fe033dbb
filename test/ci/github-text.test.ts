import { describe, expect, it } from "vitest";
import { annotations, stepSummary } from "../../src/ci/index.js";
import { triggers } from "./fixtures-text.js";

const gates = [
  { name: "pass-rate", passed: true, message: "0.9 >= 0.8" },
  { name: "delta", agent: "codex", passed: false, message: "100% worse\r\nsee log" },
  { name: "cost", passed: false, message: "too dear" },
];

describe("the GitHub step summary, as text", () => {
  it("shows the gates, the benchmark table and the failed queries, a table cell's pipes and newlines escaped", () => {
    const markdown = stepSummary({
      skillName: "tidy",
      iterationDir: "/w/it-1",
      benchmarkMarkdown: "\n| a | b |\n|---|---|\n\n",
      triggers: triggers(),
      gates,
    });
    expect(markdown).toBe(
      [
        "## skillgym: tidy",
        "",
        "Iteration: `/w/it-1`",
        "",
        "- ✅ gate pass-rate: 0.9 >= 0.8",
        "- ❌ gate delta (codex): 100% worse\r\nsee log",
        "- ❌ gate cost: too dear",
        "",
        "| a | b |\n|---|---|",
        "",
        "### Triggers: 1/5 queries passed, accuracy 33.3%",
        "",
        "| query | should trigger | rate | runs |",
        "|---|---|---|---|",
        "| tidy \\| this file | yes | 0.25 | 5 |",
        "| lint 100% | no | 1.00 | 2 |",
        "| broken | yes | errored | 2 |",
        "| no rate | no | errored | 3 |",
        "",
        "",
      ].join("\n"),
    );
  });

  it("is only the heading when there is nothing else to show", () => {
    expect(stepSummary({ skillName: "tidy", iterationDir: "/w/it-1", gates: [] })).toBe(
      "## skillgym: tidy\n\nIteration: `/w/it-1`\n\n",
    );
    expect(
      stepSummary({ skillName: "tidy", iterationDir: "/w/it-1", benchmarkMarkdown: "", gates: [] }),
    ).toBe("## skillgym: tidy\n\nIteration: `/w/it-1`\n\n");
  });

  it("says the accuracy is unknown when there is none, and lists no table when every query passed", () => {
    const all = triggers();
    const passing = {
      ...all,
      results: all.results.filter((r) => r.pass === true),
      summary: { ...all.summary, total: 1, passed: 1, accuracy: null },
    };
    expect(stepSummary({ skillName: "tidy", iterationDir: "/w/it-1", triggers: passing, gates: [] })).toBe(
      "## skillgym: tidy\n\nIteration: `/w/it-1`\n\n### Triggers: 1/1 queries passed, accuracy unknown\n\n",
    );
  });

  it("escapes a carriage return or a line feed in a query cell alike", () => {
    const all = triggers();
    const one = { ...all, results: [{ ...all.results[0]!, query: "a\r\nb\nc" }] };
    expect(stepSummary({ skillName: "t", iterationDir: "/i", triggers: one, gates: [] })).toContain(
      "| a b c | yes |",
    );
  });
});

describe("GitHub workflow annotations", () => {
  it("an error per failed gate and a warning per failed query, % and line ends escaped", () => {
    expect(annotations(gates, triggers())).toEqual([
      "::error title=skillgym gate delta (codex)::100%25 worse%0D%0Asee log",
      "::error title=skillgym gate cost::too dear",
      "::warning title=skillgym trigger query::should trigger: tidy | this%0Afile",
      "::warning title=skillgym trigger query::should not trigger: lint 100%25",
      "::warning title=skillgym trigger query::should not trigger: no rate",
    ]);
    expect(annotations(gates.slice(0, 1))).toEqual([]);
  });
});
