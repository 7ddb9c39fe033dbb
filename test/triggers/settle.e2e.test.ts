import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { startSim } from "../../src/sim/index.js";
import { runTriggers } from "../../src/triggers/index.js";
import { createDoubleAgent } from "../agent-double/index.js";
import { fastRetry, readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;

// One query per pattern of outcomes, in the order the sim plays them to the query's runs.
const groups = [
  { should: true, pattern: [true, true, true] },
  { should: true, pattern: [true, false, false] },
  { should: false, pattern: [true, true, false] },
  { should: false, pattern: [false, false, false] },
  { should: true, pattern: [false, true, true] },
];

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku poem. Use when the user asks for a haiku.",
      "Write one.",
    ),
    "haiku/evals/triggers.json": JSON.stringify(
      groups.map((g, n) => ({ query: `group ${n}: something in verse`, should_trigger: g.should })),
    ),
  });
});
afterEach(() => cleanup());

async function triggers(allRuns: boolean) {
  const script = SimScript.parse({
    rules: groups.map((g, n) => ({ match: `^group ${n}:`, skill: "~haiku-sg-", trigger_pattern: g.pattern })),
  });
  const sim = await startSim({ script });
  try {
    const summary = await runTriggers({
      skillPath: join(dir, "haiku"),
      workspace: join(dir, allRuns ? "ws-all" : "ws-settled"),
      runs: 3,
      threshold: 0.5,
      // Two at a time: a query's first two runs have ended before its third would start.
      concurrency: 2,
      timeoutSeconds: 60,
      retry: fastRetry,
      allRuns,
      createAgent: () => createDoubleAgent({ simulatorUrl: sim.url }),
    });
    const agentRequests = sim.log.filter((e) => e.action !== "side-request").length;
    return { summary, agentRequests, sessions: new Set(sim.log.map((e) => e.session)).size };
  } finally {
    await sim.close();
  }
}

describe("settled trigger verdicts against the Claude Code test double and the sim", () => {
  it("stops a query once its verdict is settled, with fewer model requests and the same verdicts", async () => {
    const all = await triggers(true);
    const settled = await triggers(false);

    expect(all.summary.results.results.map((r) => r.runs)).toEqual([3, 3, 3, 3, 3]);
    // Two equal first outcomes settle it; the split ones need their third run.
    expect(settled.summary.results.results.map((r) => r.runs)).toEqual([2, 3, 2, 2, 3]);
    expect(settled.summary.results.results.map((r) => r.pass)).toEqual(
      all.summary.results.results.map((r) => r.pass),
    );
    expect(all.sessions).toBe(15);
    expect(settled.sessions).toBe(12);
    // Every run that reaches the model opens a session; a triggered run may send one more request before the stop lands
    // (more often on a loaded machine), so the dropped runs show in the sessions, not in an exact request count.
    expect(settled.agentRequests).toBeGreaterThanOrEqual(settled.sessions);

    const onDisk = TriggerResults.parse(await readJson(settled.summary.resultsFile));
    expect(onDisk).toMatchObject({ runs_per_query: 3, all_runs: false });
    expect(onDisk.results[0]).toMatchObject({ runs: 2, triggers: 2, trigger_rate: 1, pass: true });
    expect(TriggerResults.parse(await readJson(all.summary.resultsFile)).all_runs).toBe(true);
  }, 240_000);
});
