import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costOf } from "../../../src/agents/pricing.js";
import { writeReplayedRun } from "../../../src/triggers/replay/replayed-run.js";
import { readJson, tempDir } from "../../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup?.());

const usage = { inputTokens: 20_000, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 };
const spec = (n: number) => ({
  queryIndex: 0,
  query: "write a haiku",
  shouldTrigger: true,
  runNumber: n,
  syntheticName: "haiku-sg-00000000",
  runDir: join(dir, `query-1/run-${n}`),
});

describe("a run decided by replay", () => {
  it("writes trigger.json with decided_by replay, the listed name, one request, and its tokens priced", async () => {
    const record = await writeReplayedRun({
      spec: spec(1),
      verdict: { label: "stolen", by: ["limerick"] },
      turn: {
        text: "",
        calls: [{ name: "Skill", input: { skill: "limerick" } }],
        model: "claude-sonnet-4-5",
        usage,
      },
      skillName: "haiku",
      listedAs: "haiku-sg-capture1",
      simulated: false,
      durationMs: 12,
    });
    const written = await readJson(join(dir, "query-1/run-1/trigger.json"));
    expect(written).toMatchObject({
      decided_by: "replay",
      triggered: false,
      stolen_by: ["limerick"],
      skills_loaded: ["limerick"],
      synthetic_name: "haiku-sg-capture1",
      model_requests: 1,
      outcome: "success",
    });
    expect(written.cost_usd).toBe(costOf("claude-sonnet-4-5", usage));
    expect(written.cost_usd).toBeGreaterThan(0);
    expect(record.stolenBy).toEqual(["limerick"]);
    expect(await readJson(join(dir, "query-1/run-1/replay-turn.json"))).toMatchObject({ verdict: "stolen" });
  });

  it("says its cost is unknown when the model has no price", async () => {
    await writeReplayedRun({
      spec: spec(2),
      verdict: { label: "triggered" },
      turn: { text: "", calls: [], model: "some-unpriced-model", usage },
      skillName: "haiku",
      listedAs: "haiku-sg-capture1",
      simulated: false,
      durationMs: 12,
    });
    const written = await readJson(join(dir, "query-1/run-2/trigger.json"));
    expect(written).toMatchObject({ cost_source: "unknown", triggered: true, skills_loaded: ["haiku"] });
    expect(written).not.toHaveProperty("cost_usd");
  });
});
