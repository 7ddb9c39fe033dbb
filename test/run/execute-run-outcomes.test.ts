import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FinishedRun, runEvals } from "../../src/run/index.js";
import { readJson, skillMd } from "../e2e/helpers.js";
import { type EvalBench, evalOptions, startBench } from "./eval-fixtures.js";

// How a run that does not simply succeed is recorded: runEvals in this process on the test double and one sim.
let bench: EvalBench;
beforeAll(async () => {
  bench = await startBench({
    "trials/SKILL.md": skillMd("trials", "Writes greeting cards under trying conditions.", "Write it."),
    "trials/evals/evals.json": JSON.stringify({
      evals: [
        { id: "busy", prompt: "busy: a card", expectations: ["a card"] },
        { id: "storm", prompt: "storm: a card", expectations: ["a card"] },
        { id: "hang", prompt: "hang: a card", expectations: ["a card"] },
        { id: "big", prompt: "big: a card", expectations: ["a card"] },
      ],
    }),
  });
});
afterAll(() => bench.close());

const OVERLOADED =
  "API Error: 529 Simulated 529 (overloaded_error) from skillgym sim. This is a server-side issue, usually temporary — try again in a moment.";
const OVER_LIMIT =
  "outputs over the limit: the files created or changed come to 2.0 KB or more (apparent size; counting stopped after 1 file), the total allowed is 1000 B (--max-output)";

const trials = (workspace: string, only: string[]) =>
  evalOptions(bench, workspace, { skillPath: join(bench.dir, "trials"), baseline: "none", only });

describe("runs that do not simply succeed", () => {
  it("retries a busy service, and records a run still overloaded after every retry without handing it on", async () => {
    const retries: unknown[] = [];
    const finished: FinishedRun[] = [];
    const summary = await runEvals({
      ...trials("ws-busy", ["busy", "storm"]),
      concurrency: 1,
      afterRun: async (run) => {
        finished.push(run);
        return {};
      },
      reporter: { onRunRetry: (spec, info) => retries.push([spec.evalName, info.attempt, info.outcome]) },
    });
    expect(summary.records.map((r) => [r.spec.evalName, r.outcome, r.attempts, r.error])).toEqual([
      ["eval-busy", "success", 2, undefined],
      ["eval-storm", "overloaded", 2, OVERLOADED],
    ]);
    expect(retries).toEqual([
      ["eval-busy", 1, "overloaded"],
      ["eval-storm", 1, "overloaded"],
    ]);
    expect(finished.map((f) => f.spec.evalName)).toEqual(["eval-busy"]);
    const busy = join(summary.iterationDir, "eval-busy", "with_skill", "run-1");
    expect(await readFile(join(busy, "outputs", "card.txt"), "utf8")).toBe("hi");
    const storm = join(summary.iterationDir, "eval-storm", "with_skill", "run-1");
    expect(await readJson(join(storm, "timing.json"))).toEqual({
      total_tokens: 0,
      duration_ms: expect.any(Number),
      total_duration_seconds: expect.any(Number),
      executor_start: expect.any(String),
      executor_end: expect.any(String),
      executor_duration_seconds: expect.any(Number),
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      num_turns: 1,
      model: "skillgym-sim",
      outcome: "overloaded",
      error: OVERLOADED,
      attempts: 2,
      simulated: true,
    });
    expect(await readJson(join(storm, "outputs", "metrics.json"))).toMatchObject({
      total_tool_calls: 0,
      errors_encountered: 1,
      output_chars: 0,
    });
    // A failed run still ends the plan: the iteration is complete.
    expect(await readJson(join(summary.iterationDir, "iteration.json"))).toMatchObject({
      status: "complete",
    });
  });

  it("records a run over the output limits with no outputs, and a hanging run as a timeout", async () => {
    const summary = await runEvals({
      ...trials("ws-big", ["big", "hang"]),
      timeoutSeconds: 2,
      outputLimits: { totalBytes: 1000 },
    });
    expect(summary.records.map((r) => [r.spec.evalName, r.outcome, r.attempts, r.error])).toEqual([
      ["eval-big", "output_limit", 1, OVER_LIMIT],
      ["eval-hang", "timeout", 1, "timed out after 2 s"],
    ]);
    const big = join(summary.iterationDir, "eval-big", "with_skill", "run-1");
    expect(await readJson(join(big, "timing.json"))).toMatchObject({
      outcome: "output_limit",
      error: OVER_LIMIT,
      attempts: 1,
      num_turns: 2,
    });
    // Half a collection is no record: nothing of what the agent wrote is kept.
    expect(await readdir(join(big, "outputs"))).toEqual(["metrics.json"]);
    expect(await readJson(join(big, "outputs", "metrics.json"))).toMatchObject({
      files_created: [],
      output_chars: 0,
    });
    const hang = join(summary.iterationDir, "eval-hang", "with_skill", "run-1");
    const hangTiming = await readJson(join(hang, "timing.json"));
    expect(hangTiming).toMatchObject({ outcome: "timeout", error: "timed out after 2 s", total_tokens: 0 });
    expect(hangTiming.duration_ms as number).toBeGreaterThanOrEqual(2000);
    expect(hangTiming.total_duration_seconds as number).toBeGreaterThanOrEqual(2);
    expect(hangTiming.total_duration_seconds as number).toBeLessThan(60);
  });

  it("records a run whose workspace cannot be staged as a crash with no agent output", async () => {
    const missing = join(bench.dir, "no-such-project");
    const summary = await runEvals({ ...trials("ws-broken", ["busy"]), projectRoot: missing });
    const error = `workspace setup failed: Project root not found: ${missing}`;
    expect(summary.records).toEqual([
      {
        spec: expect.objectContaining({ evalName: "eval-busy" }),
        outcome: "crash",
        error,
        attempts: 1,
        durationMs: expect.any(Number),
        tokens: 0,
        costUsd: 0,
        skipped: false,
        overheadMs: expect.any(Number),
      },
    ]);
    const run = join(summary.iterationDir, "eval-busy", "with_skill", "run-1");
    expect(await readJson(join(run, "timing.json"))).toEqual({
      total_tokens: 0,
      duration_ms: 0,
      total_duration_seconds: 0,
      executor_duration_seconds: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      outcome: "crash",
      error,
      attempts: 1,
      simulated: true,
    });
    expect(await readFile(join(run, "transcript.jsonl"), "utf8")).toBe("");
    expect(await readdir(join(run, "outputs"))).toEqual(["metrics.json"]);
    // Nothing was staged, so the run changed no file.
    expect(await readJson(join(run, "outputs", "metrics.json"))).toMatchObject({
      files_created: [],
      files_modified: [],
      files_deleted: [],
    });
  });
});
