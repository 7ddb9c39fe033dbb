import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { createBudget } from "../../src/run/budget.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { runTriggers, type TriggerOptions } from "../../src/triggers/index.js";
import { createDoubleAgent } from "../agent-double/index.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;

const queries = [1, 2, 3, 4, 5, 6].map((n) => ({
  query: `write a haiku poem about the sea, number ${n}`,
  should_trigger: true,
}));

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku poem. Use when the user asks for a haiku.",
      "Write a haiku.",
    ),
    "haiku/evals/triggers.json": JSON.stringify(queries),
  });
  sim = await startSim();
});
afterEach(async () => {
  await sim.close();
  await cleanup();
});

// Not --simulate: Claude Code talks to the sim as if it were the API, under a priced model name.
function realPriced(overrides: Partial<TriggerOptions> = {}): TriggerOptions {
  return {
    skillPath: join(dir, "haiku"),
    workspace: join(dir, "ws"),
    runs: 1,
    threshold: 0.5,
    concurrency: 1,
    timeoutSeconds: 60,
    retry: fastRetry,
    model: "claude-sonnet-4-5",
    createAgent: () =>
      createDoubleAgent({
        env: { ...process.env, ANTHROPIC_BASE_URL: sim.url, ANTHROPIC_API_KEY: "sk-test" },
      }),
    ...overrides,
  };
}

describe("trigger runs stopped at the first skill load are priced from the stream", () => {
  it("records a non-zero cost counted from the streamed tokens", async () => {
    const summary = await runTriggers(realPriced({ concurrency: 6 }));
    expect(summary.records).toHaveLength(6);
    for (const run of summary.records) {
      expect(run).toMatchObject({ outcome: "stopped", triggered: true });
      const record = TriggerRun.parse(
        JSON.parse(await readFile(join(run.spec.runDir, "trigger.json"), "utf8")),
      );
      expect(record.cost_source).toBe("stream");
      expect(record.cost_usd).toBeGreaterThan(0);
      // The transcript holds no result line: the figure cannot have come from Claude Code's own total.
      const transcript = await readFile(join(run.spec.runDir, "transcript.jsonl"), "utf8");
      expect(transcript).not.toMatch(/"type":"result"/);
      expect(transcript).toMatch(/"type":"stream_event"/);
    }
  });

  it("lets --max-cost see trigger spending", async () => {
    // One run prices one run: shard 1 of 6 holds the first query's run alone.
    const probe = await runTriggers(
      realPriced({ workspace: join(dir, "probe"), shard: { index: 1, count: 6 } }),
    );
    expect(probe.records).toHaveLength(1);
    const perRun = probe.records[0]!.record.cost_usd!;
    expect(perRun).toBeGreaterThan(0);
    // A budget of 2.5 runs' worth with a tiny estimate: only what the runs really spent can stop scheduling.
    const budget = createBudget(perRun * 2.5, perRun / 100);
    const summary = await runTriggers(realPriced({ budget }));
    expect(budget.exhausted).toBe(true);
    expect(budget.spentUsd).toBeGreaterThan(perRun * 2);
    expect(summary.cancelled).toBe(true);
    expect(summary.records.length).toBe(3);
  });
});
