import { describe, expect, it } from "vitest";
import { junitXml, junitXmlForAgents } from "../../src/ci/index.js";
import { runs, triggers } from "./fixtures-text.js";

// The exact text a CI server reads: every count, name, message and body, one run and one query of each kind.
const expected = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="skillgym tidy">
  <testsuite name="tidy with_skill" tests="6" failures="1" errors="2" skipped="1" time="4.250">
    <testcase name="tidy run-1" classname="tidy.with_skill" time="1.250"/>
    <testcase name="tidy run-2" classname="tidy.with_skill" time="2.500">
      <failure message="2 of 3 expectations failed" type="failure">- sorts imports
  evidence: a before b
- adds &lt;tests&gt;
  evidence: none</failure>
    </testcase>
    <testcase name="tidy run-3" classname="tidy.with_skill" time="0.000">
      <error message="overloaded" type="error">529 from the API</error>
    </testcase>
    <testcase name="tidy run-4" classname="tidy.with_skill" time="0.000">
      <error message="unreadable" type="error">timing.json is not JSON</error>
    </testcase>
    <testcase name="tidy run-5" classname="tidy.with_skill" time="0.000">
      <skipped message="never started"/>
    </testcase>
    <testcase name="tidy run-6" classname="tidy.with_skill" time="0.500"/>
  </testsuite>
  <testsuite name="tidy without_skill" tests="1" failures="0" errors="0" skipped="1" time="0.000">
    <testcase name="tidy run-1" classname="tidy.without_skill" time="0.000">
      <skipped message=""/>
    </testcase>
  </testsuite>
  <testsuite name="tidy triggers" tests="5" failures="3" errors="1" skipped="0" time="0.000">
    <testcase name="query 1: tidy | this
file" classname="tidy.triggers" time="0.000">
      <failure message="should trigger: triggered 1 of 4 runs (rate 0.25)" type="failure">query: tidy | this
file
should trigger, trigger rate 0.25, threshold 0.7</failure>
    </testcase>
    <testcase name="query 2: hello" classname="tidy.triggers" time="0.000"/>
    <testcase name="query 3: lint 100%" classname="tidy.triggers" time="0.000">
      <failure message="should not trigger: triggered 2 of 2 runs (rate 1.00)" type="failure">query: lint 100%
should not trigger, trigger rate 1.00, threshold 0.7; taken by eslint, prettier</failure>
    </testcase>
    <testcase name="query 4: broken" classname="tidy.triggers" time="0.000">
      <error message="every run errored" type="error">2 of 2 runs errored</error>
    </testcase>
    <testcase name="query 5: no rate" classname="tidy.triggers" time="0.000">
      <failure message="should not trigger: triggered 0 of 0 runs (rate none)" type="failure">query: no rate
should not trigger, trigger rate none, threshold 0.7</failure>
    </testcase>
  </testsuite>
</testsuites>
`;

describe("the JUnit XML of an iteration, as text", () => {
  it("has a testsuite per configuration and one for triggers, with counts, times and messages", () => {
    expect(junitXml({ skillName: "tidy", runs, triggers: triggers(0.7) })).toBe(expected);
  });

  it("says the default threshold of 0.5 when the results name none", () => {
    const xml = junitXml({ skillName: "tidy", runs: [], triggers: triggers() });
    expect(xml).toContain("should trigger, trigger rate 0.25, threshold 0.5</failure>");
    expect(xml).toContain("should not trigger, trigger rate none, threshold 0.5</failure>");
    expect(xml).not.toContain("with_skill");
  });

  it("names each agent's suites and classes after the agent, and leaves out what an agent did not run", () => {
    const xml = junitXmlForAgents("tidy", [
      { agent: "claude", runs: runs.slice(0, 1) },
      {
        agent: "codex",
        runs: runs.slice(5, 6),
        triggers: { ...triggers(0.7), results: triggers(0.7).results.slice(1, 2) },
      },
    ]);
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="skillgym tidy">
  <testsuite name="tidy claude with_skill" tests="1" failures="0" errors="0" skipped="0" time="1.250">
    <testcase name="tidy run-1" classname="tidy.claude.with_skill" time="1.250"/>
  </testsuite>
  <testsuite name="tidy codex with_skill" tests="1" failures="0" errors="0" skipped="0" time="0.500">
    <testcase name="tidy run-6" classname="tidy.codex.with_skill" time="0.500"/>
  </testsuite>
  <testsuite name="tidy codex triggers" tests="1" failures="0" errors="0" skipped="0" time="0.000">
    <testcase name="query 1: hello" classname="tidy.codex.triggers" time="0.000"/>
  </testsuite>
</testsuites>
`);
  });
});
