import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/registry.js";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { runTriggers } from "../../src/triggers/index.js";
import { triggerRunCost } from "../../src/triggers/run-cost.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// What Gemini CLI and Codex record for tokens and cost when a trigger run is stopped at the skill load. Unlike Claude
// Code's (priced from its streamed usage, see stream-cost.e2e.test.ts), their streams name tokens only at the end of
// the run: a stopped run has none, so its cost is unknown and said so, never a made-up $0.

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku poem. Use when the user asks for a haiku.",
      "Write a haiku.",
    ),
    "haiku/evals/triggers.json": JSON.stringify([
      { query: "write a haiku poem about the sea", should_trigger: true },
      { query: "what is the capital of France", should_trigger: false },
    ]),
  });
  sim = await startSim();
});
afterEach(async () => {
  await sim.close();
  await cleanup();
});

async function triggerRecord(runDir: string): Promise<TriggerRun> {
  return TriggerRun.parse(JSON.parse(await readFile(join(runDir, "trigger.json"), "utf8")));
}

describe("Gemini CLI trigger runs under a priced model (not --simulate: the sim stands in for the API)", () => {
  it("prices a finished run from its result and leaves a stopped run's cost unknown", async () => {
    const summary = await runTriggers({
      skillPath: join(dir, "haiku"),
      workspace: join(dir, "ws"),
      runs: 1,
      threshold: 0.5,
      concurrency: 2,
      timeoutSeconds: 60,
      retry: fastRetry,
      model: "gemini-2.5-flash",
      createAgent: () =>
        createAgent("gemini", {
          env: { ...process.env, GOOGLE_GEMINI_BASE_URL: sim.url, GEMINI_API_KEY: "test-key" },
        }),
    });
    // Records come in the order the runs finished.
    const stopped = summary.records.find((r) => r.spec.queryIndex === 0);
    const finished = summary.records.find((r) => r.spec.queryIndex === 1);
    expect(stopped).toMatchObject({ outcome: "stopped", triggered: true });
    expect(finished).toMatchObject({ outcome: "success", triggered: false });

    const stoppedRecord = await triggerRecord(stopped!.spec.runDir);
    expect(stoppedRecord.simulated).toBe(false);
    expect(stoppedRecord.cost_usd).toBeUndefined();
    expect(stoppedRecord.cost_source).toBe("unknown");
    // Its stream ended at the skill call: no result line, and no token count anywhere before it.
    const transcript = await readFile(join(stopped!.spec.runDir, "transcript.jsonl"), "utf8");
    expect(transcript).toMatch(/"type":"tool_use"/);
    expect(transcript).not.toMatch(/"type":"result"|tokens/);

    const finishedRecord = await triggerRecord(finished!.spec.runDir);
    expect(finishedRecord.cost_usd).toBeGreaterThan(0);
    expect(finishedRecord.cost_source).toBeUndefined();
  });
});

describe("Codex trigger runs, their streams priced under a priced model", () => {
  // Codex reaches the sim only as its simulator provider; the run's stream is what is priced, as a real run's would be.
  it("prices a finished run from its turn's usage and leaves a stopped run's cost unknown", async () => {
    const agent = await createAgent("codex", { simulatorUrl: sim.url });
    const run = async (prompt: string, stopAtSkill: boolean) => {
      const work = join(dir, `work-${stopAtSkill}`);
      const home = join(dir, `home-${stopAtSkill}`);
      await writeTree(work, {
        ".agents/skills/haiku/SKILL.md": await readFile(join(dir, "haiku/SKILL.md"), "utf8"),
      });
      await writeTree(home, {});
      return agent.run({
        prompt,
        cwd: work,
        home,
        model: "gpt-5.1-codex",
        timeoutMs: 60_000,
        ...(stopAtSkill ? { onEvent: (e) => (e.kind === "skill_load" ? "stop" : undefined) } : {}),
      });
    };
    const stopped = await run("write a haiku poem about the sea", true);
    expect(stopped.outcome).toBe("stopped");
    expect(stopped.events.some((e) => e.kind === "skill_load")).toBe(true);
    expect(stopped.events.some((e) => e.kind === "usage" || e.kind === "result")).toBe(false);
    expect(triggerRunCost(stopped, { simulated: false })).toEqual({ cost_source: "unknown" });

    const finished = await run("what is the capital of France", false);
    expect(finished.outcome).toBe("success");
    const cost = triggerRunCost(finished, { simulated: false });
    expect(cost.cost_usd).toBeGreaterThan(0);
    expect(cost.cost_usd).toBeCloseTo(finished.result?.costUsd ?? Number.NaN, 12);
  });
});
