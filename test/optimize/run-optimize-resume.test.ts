import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { SkillgymError } from "../../src/errors.js";
import { type OptimizeOptions, runOptimize } from "../../src/optimize/index.js";
import { BETTER, ORIGINAL, scribeOptions, useScribe } from "./scribe-fixture.js";
import { scriptedImprover, wordAgent } from "./word-agent.js";

// --resume through runOptimize in this process: an optimization is stopped by its signal, then continued in its
// folder. The agent loads a skill whose description shares a word with the query; the improver answers a script.
const STARTED = new Date("2026-01-15T10:30:00.000Z");
const RESUMED = new Date("2026-01-15T11:00:00.000Z");

const { dir, skillDir } = useScribe();

function options(overrides: Partial<OptimizeOptions> = {}): OptimizeOptions {
  return scribeOptions(dir(), { now: () => STARTED, ...overrides });
}

// An optimization stopped by its signal at the end of iteration 0, or (proposed) once the improver has answered.
async function interrupted(at: "evaluated" | "proposed", overrides: Partial<OptimizeOptions> = {}) {
  const controller = new AbortController();
  const improver = scriptedImprover([
    () => {
      controller.abort();
      return BETTER;
    },
  ]);
  const result = await runOptimize(
    options({
      signal: controller.signal,
      createImprover: async () => improver.judge,
      ...(at === "evaluated" ? { reporter: { onIterationEnd: () => controller.abort() } } : {}),
      ...overrides,
    }),
  );
  expect(result.results.status).toBe("interrupted");
  return result;
}

describe("runOptimize --resume", () => {
  it("evaluates the proposal the interrupted iteration already paid for without asking the improver again", async () => {
    const first = await interrupted("proposed");
    const improver = scriptedImprover(["Helps draft things."]);
    const agent = wordAgent();
    const events: string[] = [];
    const result = await runOptimize(
      options({
        resumeDir: join(first.dir, "results.json"),
        now: () => RESUMED,
        createAgent: async () => agent.agent,
        createImprover: async () => improver.judge,
        reporter: {
          onPlan: (info) => events.push(`plan ${info.dir} kept ${info.resumed?.kept}`),
          onProposal: (info) => events.push(`proposal ${info.iteration} ${info.proposal.description}`),
          onIterationEnd: (it) => events.push(`end ${it.iteration} ${it.status}`),
        },
      }),
    );
    expect(events).toEqual([`plan ${first.dir} kept 1`, `proposal 1 ${BETTER}`, "end 1 complete"]);
    expect(improver.requests).toHaveLength(0);
    expect(agent.requests).toHaveLength(9);
    expect(result.dir).toBe(first.dir);
    expect(result.results).toMatchObject({
      status: "complete",
      exit_reason: "train_perfect",
      started_at: STARTED.toISOString(),
      resumed_at: [RESUMED.toISOString()],
      best_iteration: 1,
      best_description: BETTER,
    });
    expect(result.results.iterations[1]!.improver).toEqual({
      model: "scripted-1",
      asks: 1,
      cost_usd: 0,
      problems: [],
    });
    expect(OptimizeResults.parse(JSON.parse(await readFile(result.resultsFile, "utf8")))).toEqual(
      result.results,
    );
    expect(await readdir(join(dir(), "ws"))).toEqual([first.dir.split("/").at(-1)]);
  });

  it("asks the improver anew when the interrupted iteration left no proposal", async () => {
    const first = await interrupted("evaluated");
    expect(await readdir(first.dir)).not.toContain("iteration-1");
    const improver = scriptedImprover([BETTER]);
    const result = await runOptimize(
      options({ resumeDir: first.dir, createImprover: async () => improver.judge }),
    );
    expect(improver.requests).toHaveLength(1);
    expect(result.results.iterations.map((it) => [it.iteration, it.description])).toEqual([
      [0, ORIGINAL],
      [1, BETTER],
    ]);
  });

  it("resumes an optimization simulated only by its improver, with the same agent and improver", async () => {
    const realAgent = async () => wordAgent({ simulated: false }).agent;
    const first = await interrupted("evaluated", { createAgent: realAgent });
    expect(first.results.simulated).toBe(true);
    const result = await runOptimize(
      options({
        resumeDir: first.dir,
        createAgent: realAgent,
        createImprover: async () => scriptedImprover([BETTER]).judge,
      }),
    );
    expect(result.results.status).toBe("complete");
    expect(result.results.iterations.map((it) => it.iteration)).toEqual([0, 1]);
  });

  it("takes the limits given again, keeping the settings from results.json", async () => {
    const first = await interrupted("evaluated", { maxCostUsd: 5 });
    expect(first.results.settings.max_cost_usd).toBe(5);
    const result = await runOptimize(
      options({
        resumeDir: first.dir,
        explicit: ["maxIterations", "patience"],
        maxIterations: 1,
        patience: 3,
        createImprover: async () => scriptedImprover(["Helps draft things."]).judge,
      }),
    );
    expect(result.results.settings).toMatchObject({
      max_iterations: 1,
      patience: 3,
      max_cost_usd: 5,
      seed: 42,
    });
    expect(result.results.exit_reason).toBe("max_iterations");
  });

  it("drops a cost limit that is not given again when results.json has none", async () => {
    const first = await interrupted("evaluated");
    const result = await runOptimize(options({ resumeDir: first.dir, explicit: [], maxCostUsd: 5 }));
    expect(result.results.settings).not.toHaveProperty("max_cost_usd");
  });

  it("refuses to resume with a setting that would change the evaluations, naming each difference", async () => {
    const first = await interrupted("evaluated");
    const before = await readFile(join(first.dir, "results.json"), "utf8");
    const refusal = runOptimize(
      options({ resumeDir: first.dir, explicit: ["seed", "runs"], seed: 7, runs: 2 }),
    );
    await expect(refusal).rejects.toThrow(SkillgymError);
    await expect(refusal).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: [
        `cannot resume ${join(first.dir, "results.json")}: it was started with other inputs`,
        "  the queries of " +
          join(skillDir(), "evals", "triggers.json") +
          " or their train/test split differ from results.json",
        "  --seed: 42 in results.json, 7 now",
        "  --runs: 1 in results.json, 2 now",
      ].join("\n"),
      file: join(first.dir, "results.json"),
      hint: "resume with the same skill, trigger queries and flags, or start a new optimization without --resume",
    });
    expect(await readFile(join(first.dir, "results.json"), "utf8")).toBe(before);
  });

  it("counts what the interrupted run spent against the budget", async () => {
    // Paid runs of $0.01; a trigger run is estimated at $0.05 and an improver call at $0.05 ($0.50 an iteration).
    const paid = () => wordAgent({ simulated: false, costUsd: 0.01 });
    const improver = () => scriptedImprover([BETTER], { simulated: false });
    const first = await interrupted("evaluated", {
      maxCostUsd: 0.55,
      createAgent: async () => paid().agent,
      createImprover: async () => improver().judge,
    });
    expect(first.results.cost_usd).toBeCloseTo(0.09, 10);
    const asked = improver();
    const result = await runOptimize(
      options({
        resumeDir: first.dir,
        explicit: ["maxCostUsd"],
        maxCostUsd: 0.2,
        createAgent: async () => paid().agent,
        createImprover: async () => asked.judge,
      }),
    );
    // Measured by the first attempt: $0.01 a trigger run, so $0.09 + $0.05 an iteration; $0.09 spent + $0.14 > $0.20.
    expect(result.results.exit_reason).toBe("budget");
    expect(result.results.settings.max_cost_usd).toBe(0.2);
    expect(asked.requests).toHaveLength(0);
  });

  it("counts the proposal it takes over against the budget", async () => {
    // The proposal cost $0.30; with the $0.09 of iteration 0 no run of its evaluation fits a limit of $0.30.
    const paid = () => wordAgent({ simulated: false, costUsd: 0.01 });
    const controller = new AbortController();
    const first = await runOptimize(
      options({
        maxCostUsd: 0.6,
        signal: controller.signal,
        createAgent: async () => paid().agent,
        createImprover: async () =>
          scriptedImprover(
            [
              () => {
                controller.abort();
                return BETTER;
              },
            ],
            { simulated: false, costUsd: 0.3 },
          ).judge,
      }),
    );
    expect(first.results.exit_reason).toBe("cancelled");
    const agent = paid();
    const result = await runOptimize(
      options({
        resumeDir: first.dir,
        explicit: ["maxCostUsd"],
        maxCostUsd: 0.3,
        createAgent: async () => agent.agent,
        createImprover: async () => scriptedImprover([BETTER], { simulated: false }).judge,
      }),
    );
    expect(agent.requests).toHaveLength(0);
    expect(result.results.exit_reason).toBe("budget");
    expect(
      result.results.iterations.map((it) => [it.iteration, it.status, it.trigger_runs, it.cost_usd]),
    ).toEqual([
      [0, "complete", 9, expect.closeTo(0.09, 10)],
      [1, "interrupted", 0, 0.3],
    ]);
  });

  it("makes again only the runs an evaluation cut short had not finished", async () => {
    const controller = new AbortController();
    const cut = wordAgent();
    const run = cut.agent.run.bind(cut.agent);
    const first = await runOptimize(
      options({
        maxIterations: 0,
        concurrency: 1,
        signal: controller.signal,
        // The third run is cut short by the abort, as an agent's process is killed.
        createAgent: async () => ({
          ...cut.agent,
          run: async (request) => {
            if (cut.requests.length === 2) controller.abort();
            const made = await run(request);
            return request.signal?.aborted ? { ...made, outcome: "cancelled" as const } : made;
          },
        }),
      }),
    );
    expect(first.results.iterations.map((it) => [it.status, it.trigger_runs])).toEqual([["interrupted", 2]]);
    const agent = wordAgent();
    let kept: number | undefined;
    const result = await runOptimize(
      options({
        resumeDir: first.dir,
        explicit: [],
        createAgent: async () => agent.agent,
        reporter: {
          onPlan: (info) => {
            kept = info.resumed?.kept;
          },
        },
      }),
    );
    expect(kept).toBe(0);
    expect(agent.requests).toHaveLength(7);
    expect(result.results.iterations[0]).toMatchObject({
      iteration: 0,
      status: "complete",
      trigger_runs: 7,
      reused_runs: 2,
    });
  });
});
