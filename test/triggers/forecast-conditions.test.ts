import { mkdir, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { openStore } from "../../src/store/index.js";
import type { TriggerOptions } from "../../src/triggers/index.js";
import { triggerRunKeys } from "../../src/triggers/reuse-trigger.js";
import { forecastTriggerRuns } from "../../src/triggers/store-forecast.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// The forecast of a store's trigger runs, with store entries written here (no agent runs): what a shard counts of a
// settled query, and what the clean room's forecast leaves unread.
let dir: string;
let cleanup: () => Promise<void>;
let agent: Agent;
const QUERY = "write a haiku about rain";
const DESCRIPTION = "Writes a haiku poem.";
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd("haiku", DESCRIPTION, "Write a haiku."),
    "haiku/evals/triggers.json": JSON.stringify([{ query: QUERY, should_trigger: true }]),
    "proj/readme.md": "# app\n",
  });
  agent = await createClaudeCodeAgent({ simulatorUrl: "http://127.0.0.1:9" });
});
afterAll(() => cleanup());

const options = (overrides: Partial<TriggerOptions> = {}): TriggerOptions => ({
  skillPath: join(dir, "haiku"),
  workspace: join(dir, "ws"),
  runs: 2,
  threshold: 0.5,
  concurrency: 1,
  timeoutSeconds: 60,
  store: {},
  createAgent: async () => agent,
  ...overrides,
});

// Stores run `runNumber` of the query, in the clean room, as a run that triggered.
async function storeTriggered(runNumber: number) {
  const runDir = join(dir, "runs", `run-${runNumber}`);
  await mkdir(runDir, { recursive: true });
  await writeFile(
    join(runDir, "trigger.json"),
    JSON.stringify({
      query: QUERY,
      should_trigger: true,
      synthetic_name: "haiku-sg-00000001",
      triggered: true,
      skills_loaded: ["haiku"],
      stolen_by: [],
      outcome: "stopped",
      attempts: 1,
      duration_ms: 5,
    }),
  );
  const key = await triggerRunKeys(
    { agent, skillName: "haiku", timeoutMs: 60_000, companions: [], installed: [] },
    DESCRIPTION,
  )({ query: QUERY, runNumber });
  await openStore({ dir: join(dir, "ws", ".skillgym-cache") }).put("trigger-run", key, {
    runDir,
    source: {
      iteration: "iteration-1",
      run: `triggers/query-1/run-${runNumber}`,
      workspace: dir,
      cost_usd: 0,
    },
  });
}

const myTempRoots = async () =>
  (await readdir(tmpdir())).filter((n) => n.startsWith(`skillgym-triggers.${process.pid}.`));

describe("the forecast of trigger runs", () => {
  it("counts every run of a shard's share, even where the query settled before it", async () => {
    await storeTriggered(1);
    // The first run triggered: the query is settled, its second run not needed.
    expect(await forecastTriggerRuns(options())).toMatchObject({ runs: 2, served: 1, toRun: 0 });
    // A shard cannot tell when a query settles: one shard of one holds both runs, and makes the second.
    expect(await forecastTriggerRuns(options({ shard: { index: 1, count: 1 } }))).toMatchObject({
      runs: 2,
      served: 1,
      toRun: 1,
    });
  });

  it("in the clean room reads neither the project nor the conversation, and leaves no temporary folder", async () => {
    const missing = {
      project: join(dir, "no-such-project"),
      context: join(dir, "no-such-context.json"),
    };
    expect(
      await forecastTriggerRuns(options({ ...missing, conditions: { clean: true, real: false } })),
    ).toMatchObject({ runs: 2, served: 1, toRun: 0 });
    // Under the real conditions the project is copied and hashed, in a temporary folder removed afterwards.
    const real = await forecastTriggerRuns(options({ project: join(dir, "proj") }));
    expect(real).toMatchObject({ runs: 2, served: 0, toRun: 2 });
    expect(await myTempRoots()).toEqual([]);
  });
});
