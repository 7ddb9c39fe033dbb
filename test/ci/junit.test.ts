import { describe, expect, it } from "vitest";
import type { RunData } from "../../src/bench/model.js";
import { annotations, escapeXml, junitXml, junitXmlForAgents, stepSummary } from "../../src/ci/index.js";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { elements, parseXml } from "./xml-tree.js";

const hostile = `</failure><x a="1">&amp; ]]> ' " \u0001\u0008 \uD800 ${"é"} 🙂 <![CDATA[ x ]]>`;

function run(partial: Partial<RunData>): RunData {
  return {
    evalId: 1,
    evalName: "eval-1",
    configuration: "with_skill",
    runNumber: 1,
    problems: [],
    ...partial,
  };
}

const grading = (expectations: { text: string; passed: boolean; evidence: string }[]) => ({
  expectations,
  summary: {
    passed: expectations.filter((e) => e.passed).length,
    failed: expectations.filter((e) => !e.passed).length,
    total: expectations.length,
    pass_rate: 0,
  },
});

const triggers: TriggerResults = {
  skill_name: "s",
  description: "d",
  threshold: 0.5,
  results: [
    { query: hostile, should_trigger: true, trigger_rate: 0, triggers: 0, runs: 2, errors: 0, pass: false },
    { query: "fine", should_trigger: false, trigger_rate: 0, triggers: 0, runs: 2, errors: 0, pass: true },
    {
      query: "broken",
      should_trigger: false,
      trigger_rate: null,
      triggers: 0,
      runs: 2,
      errors: 2,
      pass: null,
    },
  ],
  summary: { total: 3, passed: 1, failed: 1, errors: 1, precision: null, recall: 0, f1: null, accuracy: 0.5 },
};

describe("junitXml", () => {
  const xml = junitXml({
    skillName: `skill ${hostile}`,
    runs: [
      run({
        grading: grading([{ text: "passes", passed: true, evidence: "ok" }]),
        timing: { total_duration_seconds: 2.5 },
      }),
      run({
        runNumber: 2,
        grading: grading([
          { text: `names ${hostile}`, passed: false, evidence: `saw ${hostile}` },
          { text: "second", passed: false, evidence: "missing" },
        ]),
      }),
      run({
        runNumber: 3,
        exclusion: { kind: "errored", reason: "rate_limited", message: `429 ${hostile}` },
      }),
      run({
        configuration: "without_skill",
        exclusion: { kind: "ungraded", reason: "ungraded", message: "not graded" },
      }),
    ],
    triggers,
  });

  it("is well-formed XML whatever the text, with one testsuite per configuration and one for triggers", () => {
    const root = parseXml(xml);
    expect(root.name).toBe("testsuites");
    const suites = elements(root, "testsuite");
    expect(suites.map((s) => s.attributes.name)).toEqual([
      `skill ${hostile.replace(/[\u0001\u0008\uD800]/g, "\uFFFD")} with_skill`,
      expect.stringContaining("without_skill"),
      expect.stringContaining("triggers"),
    ]);
    expect(suites.map((s) => elements(s, "testcase").length)).toEqual([3, 1, 3]);
  });

  it("puts failed expectations with their evidence in <failure>, errored runs in <error>, times in seconds", () => {
    const withSkill = elements(parseXml(xml), "testsuite")[0]!;
    expect(withSkill.attributes).toMatchObject({ tests: "3", failures: "1", errors: "1", time: "2.500" });
    const [passed, failed, errored] = elements(withSkill, "testcase");
    expect(passed!.children).toEqual([]);
    expect(passed!.attributes.time).toBe("2.500");
    const failure = elements(failed!, "failure")[0]!;
    expect(failure.attributes.message).toBe("2 of 2 expectations failed");
    expect(failure.text).toContain(`evidence: saw </failure><x a="1">&amp; ]]>`);
    expect(failure.text).toContain("- second\n  evidence: missing");
    expect(elements(errored!, "error")[0]!.attributes.message).toBe("rate_limited");
    expect(elements(errored!, "failure")).toEqual([]);
  });

  it("fails a query that missed its verdict and errors one whose runs all errored", () => {
    const suite = elements(parseXml(xml), "testsuite")[2]!;
    expect(suite.attributes).toMatchObject({ tests: "3", failures: "1", errors: "1" });
    const [missed, fine, broken] = elements(suite, "testcase");
    expect(elements(missed!, "failure")[0]!.attributes.message).toBe(
      "should trigger: triggered 0 of 2 runs (rate 0.00)",
    );
    expect(fine!.children).toEqual([]);
    expect(elements(broken!, "error")[0]!.attributes.message).toBe("every run errored");
  });

  it("escapes the five specials and replaces what XML cannot carry", () => {
    expect(escapeXml(`<a b="c">&'`)).toBe("&lt;a b=&quot;c&quot;&gt;&amp;&apos;");
    expect(escapeXml("a\u0000b\uDC00c🙂")).toBe("a\uFFFDb\uFFFDc🙂");
  });
});

describe("junitXmlForAgents", () => {
  it("has one testsuite per agent and configuration and one per agent's triggers, classnames naming the agent", () => {
    const xml = junitXmlForAgents("s", [
      { agent: "claude-code", runs: [run({}), run({ configuration: "without_skill" })], triggers },
      { agent: "codex", runs: [run({}), run({ runNumber: 2 })] },
    ]);
    const suites = elements(parseXml(xml), "testsuite");
    expect(suites.map((s) => s.attributes.name)).toEqual([
      "s claude-code with_skill",
      "s claude-code without_skill",
      "s claude-code triggers",
      "s codex with_skill",
    ]);
    expect(suites.map((s) => elements(s, "testcase").length)).toEqual([1, 1, 3, 2]);
    expect(elements(suites[3]!, "testcase").map((c) => c.attributes.classname)).toEqual([
      "s.codex.with_skill",
      "s.codex.with_skill",
    ]);
    expect(elements(suites[2]!, "testcase")[0]!.attributes.classname).toBe("s.claude-code.triggers");
  });
});

describe("GitHub summary and annotations", () => {
  const gates = [
    { name: "min-pass-rate", passed: false, message: "with_skill pass rate 50.0% < 90.0%\nsecond line" },
    { name: "min-trigger-accuracy", passed: true, message: "ok" },
  ];
  it("annotates failed gates as errors and failed queries as warnings, one line each", () => {
    expect(annotations(gates, triggers)).toEqual([
      "::error title=skillgym gate min-pass-rate::with_skill pass rate 50.0%25 < 90.0%25%0Asecond line",
      `::warning title=skillgym trigger query::should trigger: ${hostile}`,
    ]);
  });
  it("summarises gates, the benchmark table and the failed queries in markdown", () => {
    const md = stepSummary({
      skillName: "s",
      iterationDir: "/w/iteration-1",
      benchmarkMarkdown: "| a | b |\n|---|---|",
      triggers,
      gates,
    });
    expect(md).toContain("- ❌ gate min-pass-rate");
    expect(md).toContain("| a | b |");
    expect(md).toContain("### Triggers: 1/3 queries passed, accuracy 50.0%");
    expect(md).toContain("| broken | no | errored | 2 |");
    expect(md).not.toContain("| fine |");
  });
});
