import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { type OptimizeOptions, runOptimize } from "../../src/optimize/index.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry, skillMd, writeTree } from "../e2e/helpers.js";
import { scriptedImprover } from "./word-agent.js";

// runOptimize in this process with replay screening its runs: the claude-code adapter on the test double, against a
// sim that loads the skill for the "R" queries and answers the others without it.
const script = SimScript.parse({
  rules: [
    { match: "^R", skill: "~scribe-sg-" },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

const fx = useSimDouble(script, (dir) =>
  writeTree(dir, {
    "scribe/SKILL.md": skillMd("scribe", "Writes release notes.", "Write them."),
    "scribe/evals/triggers.json": JSON.stringify([
      { query: "R1 draft the release notes", should_trigger: true },
      { query: "R2 write the changelog", should_trigger: true },
      { query: "N1 what is the weather", should_trigger: false },
      { query: "N2 plot the sales", should_trigger: false },
    ]),
  }),
);

const options = (overrides: Partial<OptimizeOptions> = {}): OptimizeOptions => ({
  skillPath: join(fx.dir, "scribe"),
  workspace: join(fx.dir, "ws"),
  maxIterations: 0,
  holdout: 0.5,
  runs: 3,
  threshold: 0.5,
  seed: 42,
  concurrency: 2,
  timeoutSeconds: 60,
  retry: { ...fastRetry, attempts: 1 },
  screen: { mode: "replay", screen: { kind: "replay" } },
  createAgent: async () => fx.agent(),
  createImprover: async () => scriptedImprover([]).judge,
  ...overrides,
});

describe("runOptimize with replay", () => {
  it("records the train runs and test first runs replay decided, and that it captured the agent's request", async () => {
    const result = await runOptimize(options());
    // Replay decides every train run it makes and each test query's first run; the agent makes the rest.
    expect(result.results.iterations[0]!.replay).toEqual({
      train_runs: 4,
      decided_by_replay: 4,
      test_first_runs: 2,
      test_decided_by_replay: 2,
      captured: true,
    });
  });

  it("keeps what replay did in an evaluation cut short", async () => {
    const controller = new AbortController();
    const result = await runOptimize(
      options({
        workspace: join(fx.dir, "ws-cut"),
        signal: controller.signal,
        triggerReporter: { onRunEnd: () => controller.abort() },
      }),
    );
    const [original] = result.results.iterations;
    // Whether the capture finished before the stop is a race; that the record is kept is not.
    expect(original).toMatchObject({
      status: "interrupted",
      replay: { train_runs: expect.any(Number), captured: expect.any(Boolean) },
    });
  });
});
