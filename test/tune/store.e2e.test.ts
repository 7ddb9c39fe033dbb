import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createJudge } from "../../src/judge/create.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { runTune } from "../../src/tune/index.js";
import { createDoubleAgent } from "../agent-double/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { fastRetry, skillMd } from "./tune-helpers.js";

const GOOD = "Writes greeting cards. Use when asked for a greeting card.";
const v0 = skillMd("greeter", GOOD, "Write card.txt for the guest.");
const v1 = skillMd("greeter", GOOD, "BETTER-STEPS: read the guest's name, then write card.txt.");
const EVAL_PROMPT = "Please make a greeting card for Ada";

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": v0,
    "greeter/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: EVAL_PROMPT,
          expectations: [],
          checks: [{ type: "file_contains", path: "card.txt", pattern: "Ada" }],
        },
      ],
    }),
  });
  sim = await startSim({
    script: SimScript.parse({
      rules: [
        {
          match: "tune iteration 1\\b",
          skill: "none",
          without_skill: [
            { read: "greeter/SKILL.md" },
            { write: { path: "greeter/SKILL.md", content: v1 } },
            { write: { path: "iteration-1-changes.md", content: "- BETTER-STEPS\n" } },
          ],
        },
        { match: "greeting card", steps: [{ write: { path: "card.txt", content: "Hello, Ada!\n" } }] },
      ],
      judge: { rubric: { default: 60, when: [{ match: "BETTER-STEPS", score: 80 }] } },
    }),
  });
});
afterEach(async () => {
  await sim.close();
  await cleanup();
});

// One tune of two rounds (v0, then the improver's v1); says how many eval-run sessions it sent to the model.
async function tune(fresh: boolean) {
  const before = sim.log.length;
  const result = await runTune({
    skillPaths: [join(dir, "greeter")],
    maxIterations: 2,
    threshold: 99,
    workspace: join(dir, "ws"),
    runs: 2,
    concurrency: 2,
    timeoutSeconds: 60,
    retry: fastRetry,
    store: { judge: "sim", ...(fresh ? { fresh: true } : {}) },
    createAgent: () => createDoubleAgent({ simulatorUrl: sim.url }),
    createJudge: () => createJudge({ backend: "sim", simulatorUrl: sim.url }),
  });
  const evalSessions = new Set(
    sim.log.slice(before).flatMap((e) => (e.prompt.startsWith(EVAL_PROMPT) ? [e.session] : [])),
  );
  return { result, evalSessions: evalSessions.size };
}

describe("tune with the result store", () => {
  it("serves the eval runs of a skill version measured before, in any tune of the workspace; --fresh re-runs them", async () => {
    const first = await tune(false);
    expect(first.result.state.score_trend).toHaveLength(2);
    expect(first.evalSessions).toBe(4);
    // The same tune again: v0 and v1 were both measured, so no eval run reaches the model; the scores are the same.
    const second = await tune(false);
    expect(second.evalSessions).toBe(0);
    expect(second.result.state.score_trend).toEqual(first.result.state.score_trend);
    expect(second.result.state.iterations.every((it) => it.execution?.cost_usd === 0)).toBe(true);
    const fresh = await tune(true);
    expect(fresh.evalSessions).toBe(4);
  });
});
