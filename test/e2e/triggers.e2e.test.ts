import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { startSim } from "../../src/sim/index.js";
import { hashSkill } from "../../src/skill/index.js";
import { runTriggers, type TriggerOptions } from "../../src/triggers/index.js";
import { createDoubleAgent } from "../agent-double/index.js";
import { fastRetry, readJson, skillMd, tempDir, writeTree } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;

async function runWithSim(script: SimScript, options: Partial<Omit<TriggerOptions, "createAgent">>) {
  const sim = await startSim({ script });
  try {
    const summary = await runTriggers({
      skillPath: join(dir, "project", "skills", "haiku"),
      workspace: join(dir, "ws"),
      runs: 3,
      threshold: 0.5,
      concurrency: 8,
      timeoutSeconds: 60,
      retry: fastRetry,
      ...options,
      createAgent: () => createDoubleAgent({ simulatorUrl: sim.url }),
    });
    return { summary, sim };
  } finally {
    await sim.close();
  }
}

async function writeQueries(queries: { query: string; should_trigger: boolean }[]) {
  await writeTree(dir, { "project/skills/haiku/evals/triggers.json": JSON.stringify(queries) });
}

async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.map((e) => join(e.parentPath, e.name)).sort();
}

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/README.md": "A project.\n",
    "project/skills/haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku poem. Use when the user asks for a haiku.",
      "Write a haiku.",
    ),
    "router/SKILL.md": skillMd(
      "router",
      "Routes poetry requests to the right skill. Use for any poem.",
      "Route it.",
    ),
    "limerick/SKILL.md": skillMd(
      "limerick",
      "Writes limericks. Use when the user asks for a limerick.",
      "Write one.",
    ),
  });
});
afterEach(() => cleanup());

describe("trigger evals with the Claude Code test double against skillgym sim", () => {
  // Two queries a group: each query of a rule plays the pattern from its own first run.
  it("gives exactly the scripted rates for 8 queries × 3 runs at concurrency 8", async () => {
    const groups = [
      { should: true, pattern: [true, true, true] },
      { should: true, pattern: [true, false, false] },
      { should: false, pattern: [true, true, false] },
      { should: false, pattern: [false, false, false] },
    ];
    const queries = Array.from({ length: 8 }, (_, i) => ({
      query: `group ${Math.floor(i / 2)} request ${i}: something in verse`,
      should_trigger: groups[Math.floor(i / 2)]!.should,
    }));
    await writeQueries(queries);
    const script = SimScript.parse({
      rules: groups.map((g, n) => ({
        match: `^group ${n} `,
        skill: "~haiku-sg-",
        trigger_pattern: g.pattern,
      })),
    });
    const { summary, sim } = await runWithSim(script, { allRuns: true });
    const expectedRates = [1, 1 / 3, 2 / 3, 0];
    summary.results.results.forEach((r, i) => {
      const group = Math.floor(i / 2);
      expect(r.trigger_rate).toBeCloseTo(expectedRates[group]!, 10);
      expect(r).toMatchObject({ runs: 3, errors: 0, pass: group === 0 || group === 3 });
    });
    expect(summary.results.summary).toMatchObject({ total: 8, passed: 4, failed: 4, errors: 0 });
    expect(summary.results.summary.precision).toBeCloseTo(8 / 12, 10);
    expect(summary.results.summary.recall).toBeCloseTo(8 / 12, 10);
    expect(summary.results.summary.accuracy).toBeCloseTo(16 / 24, 10);

    // Early stop: a triggered run costs exactly one model request.
    const triggered = summary.records.filter((r) => r.triggered);
    expect(triggered).toHaveLength(12);
    expect(triggered.every((r) => r.record.model_requests === 1 && r.outcome === "stopped")).toBe(true);
    const sessions = new Set(sim.log.map((e) => e.session));
    expect(sessions.size).toBe(24);

    const onDisk = TriggerResults.parse(await readJson(summary.resultsFile));
    expect(onDisk.summary.passed).toBe(4);
    expect(onDisk.simulated).toBe(true);
    const run = join(summary.iterationDir, "triggers", "query-1", "run-1");
    expect((await readdir(run)).sort()).toEqual([
      "activation.json",
      "events.jsonl",
      "transcript.jsonl",
      "transcript.md",
      "trigger.json",
    ]);
  }, 240_000);

  it("counts a run that looks around first, or routes through a meta-skill, as triggered", async () => {
    await writeQueries([
      { query: "look around first, then a haiku please", should_trigger: true },
      { query: "route this poem", should_trigger: true },
    ]);
    const script = SimScript.parse({
      rules: [
        { match: "look around", skill: "~haiku-sg-", before: [{ bash: "ls" }, { read: "README.md" }] },
        { match: "route", skill: "~haiku-sg-", before: [{ skill: "router" }] },
      ],
    });
    const { summary } = await runWithSim(script, { runs: 1, withSkills: [join(dir, "router")] });
    const [looked, routed] = summary.records.sort((a, b) => a.queryIndex - b.queryIndex);
    expect(looked).toMatchObject({ triggered: true, outcome: "stopped" });
    expect(looked!.record.model_requests).toBe(3);
    expect(routed).toMatchObject({ triggered: true });
    expect(routed!.record.skills_loaded).toEqual(["router", "haiku"]);
    expect(summary.results.results.map((r) => r.pass)).toEqual([true, true]);
  });

  it("records which skill took a query as stolen_by", async () => {
    await writeQueries([{ query: "a funny poem about a cat", should_trigger: true }]);
    const script = SimScript.parse({ rules: [{ skill: "limerick" }] });
    const { summary } = await runWithSim(script, { runs: 2, withSkills: [join(dir, "limerick")] });
    expect(summary.results.results[0]).toMatchObject({
      triggers: 0,
      runs: 2,
      pass: false,
      stolen_by: { limerick: 2 },
    });
  });

  it("counts a hanging run as an error, not as 'did not trigger'", async () => {
    await writeQueries([
      { query: "hang forever", should_trigger: false },
      { query: "a haiku about rain", should_trigger: true },
    ]);
    const script = SimScript.parse({
      rules: [{ match: "hang", fault: { hang: true } }, { skill: "~haiku-sg-" }],
    });
    // The hang always runs into the limit; the limit leaves the other run time to start on a busy machine.
    const { summary } = await runWithSim(script, { runs: 1, timeoutSeconds: 15 });
    expect(summary.results.results[0]).toMatchObject({
      trigger_rate: null,
      triggers: 0,
      runs: 1,
      errors: 1,
      pass: null,
    });
    expect(summary.results.results[1]).toMatchObject({ trigger_rate: 1, pass: true });
    expect(summary.results.summary).toMatchObject({ total: 2, passed: 1, failed: 0, errors: 1 });
  });

  it("tests another description without touching the skill, and writes nothing into the project", async () => {
    await writeQueries([{ query: "compose a sonnet about autumn leaves", should_trigger: true }]);
    const projectBefore = await listTree(join(dir, "project"));
    const hashBefore = await hashSkill(join(dir, "project", "skills", "haiku"));
    const script = SimScript.parse({ rules: [] });

    const original = await runWithSim(script, { runs: 1 });
    expect(original.summary.results.results[0]?.triggers).toBe(0);
    const other =
      "Writes a sonnet about autumn leaves or any season. Use when the user asks to compose a sonnet.";
    const changed = await runWithSim(script, { runs: 1, description: other });
    expect(changed.summary.results.results[0]?.triggers).toBe(1);
    expect(changed.summary.results.description).toBe(other);
    expect(changed.summary.iterationDir).not.toBe(original.summary.iterationDir);

    expect(await listTree(join(dir, "project"))).toEqual(projectBefore);
    expect(await hashSkill(join(dir, "project", "skills", "haiku"))).toBe(hashBefore);
    expect(await readFile(join(dir, "project", "skills", "haiku", "SKILL.md"), "utf8")).toContain(
      "Writes a haiku poem.",
    );
  });
});
