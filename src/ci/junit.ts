import { type RunData, timeSeconds } from "../bench/model.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { attributes, escapeXml } from "./xml.js";

export interface JunitInput {
  skillName: string;
  /** Every eval run of the iteration (bench's reading of the run folders). */
  runs: readonly RunData[];
  triggers?: TriggerResults;
}

/** One agent's part of an iteration that ran several. */
export interface JunitAgentPart {
  agent: string;
  runs: readonly RunData[];
  triggers?: TriggerResults;
}

interface Case {
  name: string;
  classname: string;
  time: number;
  failure?: { message: string; body: string };
  error?: { message: string; body: string };
  skipped?: string;
}

function runCase(prefix: string, run: RunData): Case {
  const base = {
    name: `${run.evalName} run-${run.runNumber}`,
    classname: `${prefix}.${run.configuration}`,
    time: timeSeconds(run) ?? 0,
  };
  if (run.exclusion?.kind === "errored" || run.exclusion?.kind === "unreadable")
    return { ...base, error: { message: run.exclusion.reason, body: run.exclusion.message } };
  if (run.exclusion) return { ...base, skipped: run.exclusion.message };
  const failed = (run.grading?.expectations ?? []).filter((e) => !e.passed);
  if (failed.length === 0) return base;
  const total = run.grading?.expectations.length ?? failed.length;
  return {
    ...base,
    failure: {
      message: `${failed.length} of ${total} expectations failed`,
      body: failed.map((e) => `- ${e.text}\n  evidence: ${e.evidence}`).join("\n"),
    },
  };
}

function triggerCases(prefix: string, triggers: TriggerResults): Case[] {
  return triggers.results.map((r, i) => {
    const base = { name: `query ${i + 1}: ${r.query}`, classname: `${prefix}.triggers`, time: 0 };
    const rate = r.trigger_rate === null ? "none" : r.trigger_rate.toFixed(2);
    const wanted = r.should_trigger ? "should trigger" : "should not trigger";
    if (r.pass === null)
      return {
        ...base,
        error: { message: "every run errored", body: `${r.errors} of ${r.runs} runs errored` },
      };
    if (r.pass) return base;
    const stolen = r.stolen_by ? `; taken by ${Object.keys(r.stolen_by).join(", ")}` : "";
    return {
      ...base,
      failure: {
        message: `${wanted}: triggered ${r.triggers} of ${r.runs - r.errors} runs (rate ${rate})`,
        body: `query: ${r.query}\n${wanted}, trigger rate ${rate}, threshold ${triggers.threshold ?? 0.5}${stolen}`,
      },
    };
  });
}

function suiteXml(name: string, cases: readonly Case[]): string {
  const time = cases.reduce((t, c) => t + c.time, 0);
  const head = `  <testsuite${attributes({
    name,
    tests: cases.length,
    failures: cases.filter((c) => c.failure).length,
    errors: cases.filter((c) => c.error).length,
    skipped: cases.filter((c) => c.skipped !== undefined).length,
    time: time.toFixed(3),
  })}>`;
  const body = cases.map((c) => {
    const open = `    <testcase${attributes({ name: c.name, classname: c.classname, time: c.time.toFixed(3) })}`;
    if (c.failure)
      return `${open}>\n      <failure${attributes({ message: c.failure.message, type: "failure" })}>${escapeXml(c.failure.body)}</failure>\n    </testcase>`;
    if (c.error)
      return `${open}>\n      <error${attributes({ message: c.error.message, type: "error" })}>${escapeXml(c.error.body)}</error>\n    </testcase>`;
    if (c.skipped !== undefined)
      return `${open}>\n      <skipped${attributes({ message: c.skipped })}/>\n    </testcase>`;
    return `${open}/>`;
  });
  return [head, ...body, "  </testsuite>"].join("\n");
}

// One testsuite per eval configuration and one for triggers, named `<label> <configuration>` and `<label> triggers`.
function partSuites(
  label: string,
  prefix: string,
  runs: readonly RunData[],
  triggers?: TriggerResults,
): string[] {
  const configurations = [...new Set(runs.map((r) => r.configuration))];
  const suites = configurations.map((configuration) =>
    suiteXml(
      `${label} ${configuration}`,
      runs.filter((r) => r.configuration === configuration).map((r) => runCase(prefix, r)),
    ),
  );
  if (triggers) suites.push(suiteXml(`${label} triggers`, triggerCases(prefix, triggers)));
  return suites;
}

function document(skillName: string, suites: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attributes({ name: `skillgym ${skillName}` })}>\n${suites.join("\n")}\n</testsuites>\n`;
}

/** JUnit XML: one testsuite per eval configuration and one for triggers; a testcase per run or query. */
export function junitXml(input: JunitInput): string {
  return document(input.skillName, partSuites(input.skillName, input.skillName, input.runs, input.triggers));
}

/** JUnit XML of an iteration that ran several agents: one testsuite per agent and configuration, and per agent's triggers. */
export function junitXmlForAgents(skillName: string, parts: readonly JunitAgentPart[]): string {
  return document(
    skillName,
    parts.flatMap((p) =>
      partSuites(`${skillName} ${p.agent}`, `${skillName}.${p.agent}`, p.runs, p.triggers),
    ),
  );
}
