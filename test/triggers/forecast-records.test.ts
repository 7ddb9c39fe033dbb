import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { openStore } from "../../src/store/index.js";
import type { TriggerOptions } from "../../src/triggers/index.js";
import { triggerRunKeys } from "../../src/triggers/reuse-trigger.js";
import { forecastTriggerRuns } from "../../src/triggers/store-forecast.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// The forecast reads each stored run's trigger.json: one it cannot read counts as an errored run, not as a verdict.
let dir: string;
let cleanup: () => Promise<void>;
let agent: Agent;
const QUERY = "explain what a monad is";
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "notes/SKILL.md": skillMd("notes", "Drafts release notes.", "Notes."),
    "notes/evals/triggers.json": JSON.stringify([{ query: QUERY, should_trigger: false }]),
  });
  agent = await createClaudeCodeAgent({ simulatorUrl: "http://127.0.0.1:9" });
});
afterAll(() => cleanup());

const options = (workspace = "ws"): TriggerOptions => ({
  skillPath: join(dir, "notes"),
  workspace: join(dir, workspace),
  runs: 3,
  threshold: 0.5,
  concurrency: 1,
  timeoutSeconds: 60,
  store: {},
  createAgent: async () => agent,
});

// Stores run `runNumber` of the query with `trigger.json` as given.
async function store(runNumber: number, record: unknown, workspace = "ws") {
  const runDir = join(dir, "runs", workspace, `run-${runNumber}`);
  await mkdir(runDir, { recursive: true });
  await writeFile(join(runDir, "trigger.json"), JSON.stringify(record));
  const key = await triggerRunKeys(
    { agent, skillName: "notes", timeoutMs: 60_000, companions: [], installed: [] },
    "Drafts release notes.",
  )({ query: QUERY, runNumber });
  await openStore({ dir: join(dir, workspace, ".skillgym-cache") }).put("trigger-run", key, {
    runDir,
    source: {
      iteration: "iteration-1",
      run: `triggers/query-1/run-${runNumber}`,
      workspace: dir,
      cost_usd: 0,
    },
  });
}

describe("the forecast of a query whose stored run triggered", () => {
  it("counts the query's other runs to make while they could still pass it", async () => {
    await store(
      1,
      {
        query: QUERY,
        should_trigger: false,
        synthetic_name: "notes-sg-00000001",
        triggered: true,
        skills_loaded: ["notes"],
        stolen_by: [],
        outcome: "stopped",
        attempts: 1,
        duration_ms: 5,
      },
      "ws-triggered",
    );
    // One trigger in one run: two runs without one would pass the query (1 of 3, under the threshold).
    expect(await forecastTriggerRuns(options("ws-triggered"))).toMatchObject({
      runs: 3,
      served: 1,
      toRun: 2,
    });
  });
});

describe("the forecast of a query whose stored run cannot be read", () => {
  it("counts it as an errored run: the query is not settled by it", async () => {
    await store(1, { query: QUERY, note: "not a trigger record" });
    await store(2, {
      query: QUERY,
      should_trigger: false,
      synthetic_name: "notes-sg-00000002",
      triggered: false,
      skills_loaded: [],
      stolen_by: [],
      outcome: "success",
      attempts: 1,
      duration_ms: 5,
    });
    // Run 1 errored and run 2 did not trigger: one scored run of the two made, the third could still fail the query.
    expect(await forecastTriggerRuns(options())).toMatchObject({ runs: 3, served: 2, toRun: 1 });
  });

  it("counts a stored run that ended in an error as errored, though it reads", async () => {
    const done = {
      query: QUERY,
      should_trigger: false,
      triggered: false,
      skills_loaded: [],
      stolen_by: [],
      outcome: "success",
      attempts: 1,
      duration_ms: 5,
    };
    await store(2, { ...done, synthetic_name: "notes-sg-00000002" }, "ws-error");
    await store(
      1,
      {
        query: QUERY,
        should_trigger: false,
        synthetic_name: "notes-sg-00000001",
        triggered: false,
        skills_loaded: [],
        stolen_by: [],
        outcome: "server_error",
        error: "API error 500",
        attempts: 1,
        duration_ms: 5,
      },
      "ws-error",
    );
    expect(await forecastTriggerRuns(options("ws-error"))).toMatchObject({ runs: 3, served: 2, toRun: 1 });
  });
});
