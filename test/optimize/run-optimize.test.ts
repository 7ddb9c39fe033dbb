import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { type OptimizeOptions, runOptimize } from "../../src/optimize/index.js";
import { skillMd } from "../e2e/helpers.js";
import { BETTER, ORIGINAL, scribeOptions, useScribe } from "./scribe-fixture.js";
import { improverDown, scriptedImprover, wordAgent } from "./word-agent.js";

// runOptimize in this process: an agent that loads a skill when its description shares a word with the query, and
// an improver that answers from a script. The original description shares no word with any query.
const NOW = new Date("2026-01-15T10:30:00.000Z");

const { dir, skillDir } = useScribe();
const skillMdPath = () => join(skillDir(), "SKILL.md");

function options(overrides: Partial<OptimizeOptions> = {}): OptimizeOptions {
  return scribeOptions(dir(), { now: () => NOW, ...overrides });
}

const stored = async (file: string) => OptimizeResults.parse(JSON.parse(await readFile(file, "utf8")));

describe("runOptimize", () => {
  it("improves the description until train is perfect, reporting each step, and --apply writes the best", async () => {
    const events: string[] = [];
    const improver = scriptedImprover([`Description: "${BETTER}"`]);
    const result = await runOptimize(
      options({
        apply: true,
        createImprover: async () => improver.judge,
        reporter: {
          onPlan: (info) =>
            events.push(`plan ${info.train}/${info.test} simulated=${info.simulated} ${"resumed" in info}`),
          onIterationStart: (info) => events.push(`start ${info.iteration} ${info.description}`),
          onProposal: (info) => events.push(`proposal ${info.iteration} ${info.proposal.description}`),
          onIterationEnd: (it) => events.push(`end ${it.iteration} ${it.status}`),
          onStop: (info) => events.push(`stop ${info.reason}`),
        },
      }),
    );
    expect(events).toEqual([
      "plan 5/4 simulated=true false",
      `start 0 ${ORIGINAL}`,
      "end 0 complete",
      `proposal 1 ${BETTER}`,
      `start 1 ${BETTER}`,
      "end 1 complete",
      "stop train_perfect",
    ]);
    expect(result.dir).toBe(join(dir(), "ws", "optimize-20260115-103000"));
    expect(result.resultsFile).toBe(join(result.dir, "results.json"));
    expect(result.reportFile).toBe(join(result.dir, "report.html"));
    expect(result.applyNote).toBe(`applied: wrote the description of iteration 1 into ${skillMdPath()}`);
    expect(await readFile(skillMdPath(), "utf8")).toBe(
      skillMd("scribe", BETTER, "Write RELEASE_NOTES.md from the git log."),
    );
    const results = await stored(result.resultsFile);
    expect(results).toEqual(result.results);
    expect(results).toMatchObject({
      status: "complete",
      exit_reason: "train_perfect",
      applied: true,
      best_iteration: 1,
      best_description: BETTER,
      final_description: BETTER,
      original_description: ORIGINAL,
      simulated: true,
      cost_usd: 0,
      started_at: NOW.toISOString(),
      screen: { kind: "none", asked: true, off: "--screen none" },
      settings: {
        max_iterations: 3,
        patience: 2,
        improver_backend: "sim",
        improver_model: "scripted",
      },
    });
    expect(results.settings).not.toHaveProperty("max_cost_usd");
    expect(results.settings).not.toHaveProperty("model");
    expect(results.iterations.map((it) => [it.iteration, it.status, it.trigger_runs, it.cost_usd])).toEqual([
      [0, "complete", 9, 0],
      [1, "complete", 9, 0],
    ]);
    const [original, improved] = results.iterations;
    expect(original).not.toHaveProperty("improver");
    expect(original).not.toHaveProperty("reused_runs");
    expect(original).not.toHaveProperty("replay");
    expect(original!.test!.summary.recall).toBe(0);
    expect(improved!.improver).toEqual({ model: "scripted-1", asks: 1, cost_usd: 0, problems: [] });
    expect(improved!.train!.score).toBe(1);
    expect(improved!.test!.score).toBe(1);
    // The improver was asked once, about the train side's failures.
    expect(improver.requests).toHaveLength(1);
    expect(improver.requests[0]!.prompt).toContain(ORIGINAL);
    for (const q of results.split.test) expect(improver.requests[0]!.prompt).not.toContain(q.query);
    expect(
      JSON.parse(await readFile(join(result.dir, "iteration-1", "improver.json"), "utf8")),
    ).toMatchObject({
      description: BETTER,
      model: "scripted-1",
      asks: 1,
    });
    expect((await readdir(result.dir)).sort()).toEqual([
      "iteration-0",
      "iteration-1",
      "report.html",
      "results.json",
    ]);
  });

  it("records a proposal that repeats an earlier description with that iteration's scores and runs nothing", async () => {
    const agent = wordAgent();
    const result = await runOptimize(
      options({
        maxIterations: 1,
        apply: true,
        createAgent: async () => agent.agent,
        createImprover: async () => scriptedImprover([ORIGINAL]).judge,
      }),
    );
    expect(agent.requests).toHaveLength(9);
    const [original, repeat] = result.results.iterations;
    expect(repeat).toEqual({
      iteration: 1,
      description: ORIGINAL,
      status: "complete",
      improver: { model: "scripted-1", asks: 1, cost_usd: 0, problems: [] },
      repeat_of: 0,
      train: original!.train,
      test: original!.test,
      trigger_runs: 0,
      cost_usd: 0,
    });
    expect(result.results).toMatchObject({
      status: "complete",
      exit_reason: "max_iterations",
      best_iteration: 0,
    });
    expect(result.applyNote).toBe(
      `not applied: the original description scored best on test; ${skillMdPath()} is unchanged`,
    );
    expect(result.results).not.toHaveProperty("applied");
    expect(await readFile(skillMdPath(), "utf8")).toBe(
      skillMd("scribe", ORIGINAL, "Write RELEASE_NOTES.md from the git log."),
    );
  });

  it("keeps the previous description when the improver fails, and stops after two failures in a row", async () => {
    const result = await runOptimize(
      options({ createImprover: async () => scriptedImprover([improverDown()]).judge }),
    );
    expect(result.results.exit_reason).toBe("improver_failed");
    expect(result.results.status).toBe("complete");
    expect(result.results.iterations.map((it) => [it.iteration, it.status, it.description])).toEqual([
      [0, "complete", ORIGINAL],
      [1, "improver_failed", ORIGINAL],
      [2, "improver_failed", ORIGINAL],
    ]);
    expect(result.results.iterations[1]).toEqual({
      iteration: 1,
      description: ORIGINAL,
      status: "improver_failed",
      improver: {
        model: "scripted",
        asks: 0,
        cost_usd: 0.25,
        problems: [],
        error: "the improver failed: the model is down",
      },
      train: null,
      test: null,
      trigger_runs: 0,
      cost_usd: 0.25,
    });
    expect(result.results.cost_usd).toBe(0.5);
    expect(result).not.toHaveProperty("applyNote");
  });

  it("stops with max_iterations when the proposals never make train perfect", async () => {
    const partly = "Helps draft things.";
    const result = await runOptimize(
      options({
        maxIterations: 1,
        createImprover: async () => scriptedImprover([partly]).judge,
      }),
    );
    expect(result.results.iterations.map((it) => it.description)).toEqual([ORIGINAL, partly]);
    expect(result.results.exit_reason).toBe("max_iterations");
  });

  it("records an error thrown during the loop in results.json and throws it on", async () => {
    let folder = "";
    const broken = new Error("the improver's connection broke");
    await expect(
      runOptimize(
        options({
          createImprover: async () => scriptedImprover([broken]).judge,
          reporter: {
            onPlan: (info) => {
              folder = info.dir;
            },
          },
        }),
      ),
    ).rejects.toBe(broken);
    const results = await stored(join(folder, "results.json"));
    expect(results).toMatchObject({
      status: "interrupted",
      exit_reason: "error",
      error: "the improver's connection broke",
    });
    expect(results.finished_at).toBeDefined();
    expect(results.iterations).toHaveLength(1);
  });

  it("stops as cancelled when the signal aborts while the improver is asked, and --apply writes nothing", async () => {
    const controller = new AbortController();
    const improver = scriptedImprover([
      () => {
        controller.abort();
        return BETTER;
      },
    ]);
    const stops: string[] = [];
    const result = await runOptimize(
      options({
        apply: true,
        signal: controller.signal,
        createImprover: async () => improver.judge,
        reporter: { onStop: (info) => stops.push(info.reason) },
      }),
    );
    expect(stops).toEqual(["cancelled"]);
    expect(improver.requests[0]!.signal).toBe(controller.signal);
    expect(result.results).toMatchObject({ status: "interrupted", exit_reason: "cancelled" });
    expect(result.results.iterations.map((it) => it.iteration)).toEqual([0]);
    expect(result.applyNote).toBe("not applied: the optimization was interrupted");
    // The paid-for proposal is kept for a resume.
    expect(
      JSON.parse(await readFile(join(result.dir, "iteration-1", "improver.json"), "utf8")),
    ).toMatchObject({
      description: BETTER,
    });
    expect(await readFile(skillMdPath(), "utf8")).toBe(
      skillMd("scribe", ORIGINAL, "Write RELEASE_NOTES.md from the git log."),
    );
  });

  it("stops as cancelled when the improver fails after the signal aborted", async () => {
    const controller = new AbortController();
    const improver = scriptedImprover([
      () => {
        controller.abort();
        throw new Error("aborted");
      },
    ]);
    const result = await runOptimize(
      options({ signal: controller.signal, createImprover: async () => improver.judge }),
    );
    expect(result.results).toMatchObject({ status: "interrupted", exit_reason: "cancelled" });
    expect(result.results.iterations.map((it) => it.iteration)).toEqual([0]);
  });

  it("does not ask the improver once the signal has aborted", async () => {
    const controller = new AbortController();
    const improver = scriptedImprover([BETTER]);
    const result = await runOptimize(
      options({
        signal: controller.signal,
        createImprover: async () => improver.judge,
        reporter: { onIterationEnd: () => controller.abort() },
      }),
    );
    expect(result.results.exit_reason).toBe("cancelled");
    expect(improver.requests).toHaveLength(0);
  });
});

describe("runOptimize with a paid agent and --max-cost", () => {
  // Without an earlier real optimization in the workspace, a trigger run is estimated at $0.05 and an improver call
  // at $0.05: an evaluation of the 9 queries at $0.45. Each run of this agent costs $0.01.
  const paid = () => wordAgent({ simulated: false, costUsd: 0.01 });
  const paidImprover = (description: string, costUsd = 0) =>
    scriptedImprover([description], { simulated: false, costUsd });

  it("stops before a proposal whose evaluation would cross the budget", async () => {
    const improver = paidImprover(BETTER);
    const result = await runOptimize(
      options({
        maxCostUsd: 0.5,
        createAgent: async () => paid().agent,
        createImprover: async () => improver.judge,
      }),
    );
    expect(result.results).toMatchObject({
      status: "complete",
      exit_reason: "budget",
      simulated: false,
      settings: { max_cost_usd: 0.5 },
      estimate: { trigger_runs: 36, improver_calls: 3 },
    });
    expect(result.results.estimate.cost_usd).toBeCloseTo(36 * 0.05 + 3 * 0.05, 10);
    expect(result.results.iterations.map((it) => it.iteration)).toEqual([0]);
    expect(result.results.cost_usd).toBeCloseTo(0.09, 10);
    expect(improver.requests).toHaveLength(0);
  });

  it("runs nothing when even the first evaluation would cross the budget", async () => {
    const agent = paid();
    const result = await runOptimize(
      options({
        maxCostUsd: 0.4,
        createAgent: async () => agent.agent,
        createImprover: async () => paidImprover(BETTER).judge,
      }),
    );
    expect(result.results).toMatchObject({ exit_reason: "budget", iterations: [] });
    expect(agent.requests).toHaveLength(0);
  });

  it("counts what the improver cost against the budget", async () => {
    // $0.09 for iteration 0; $0.30 for the proposal and $0.09 for its evaluation: $0.48, and $0.48 + $0.50 > $0.90.
    const improver = paidImprover("Helps draft things.", 0.3);
    const result = await runOptimize(
      options({
        maxCostUsd: 0.9,
        createAgent: async () => paid().agent,
        createImprover: async () => improver.judge,
      }),
    );
    expect(result.results.exit_reason).toBe("budget");
    expect(result.results.iterations.map((it) => [it.iteration, it.cost_usd])).toEqual([
      [0, expect.closeTo(0.09, 10)],
      [1, expect.closeTo(0.39, 10)],
    ]);
    expect(improver.requests).toHaveLength(1);
  });

  it("starts an evaluation whose estimate just fits the budget", async () => {
    const agent = paid();
    const result = await runOptimize(
      options({
        maxCostUsd: 0.45,
        createAgent: async () => agent.agent,
        createImprover: async () => paidImprover(BETTER).judge,
      }),
    );
    expect(agent.requests).toHaveLength(9);
    expect(result.results.iterations.map((it) => it.iteration)).toEqual([0]);
    expect(result.results.exit_reason).toBe("budget");
  });

  it("runs nothing when the first evaluation, every query `runs` times, would cross the budget", async () => {
    // 9 queries × 3 runs at $0.05: $1.35.
    const agent = paid();
    const result = await runOptimize(
      options({
        runs: 3,
        maxCostUsd: 1,
        createAgent: async () => agent.agent,
        createImprover: async () => paidImprover(BETTER).judge,
      }),
    );
    expect(result.results).toMatchObject({ exit_reason: "budget", iterations: [] });
    expect(agent.requests).toHaveLength(0);
  });

  it("tells the reporter the budget, and stops at --max-iterations, not at the budget, when both would stop it", async () => {
    const plans: { maxCostUsd?: number }[] = [];
    const result = await runOptimize(
      options({
        maxIterations: 0,
        maxCostUsd: 0.46,
        createAgent: async () => paid().agent,
        createImprover: async () => paidImprover(BETTER).judge,
        reporter: { onPlan: (plan) => plans.push(plan) },
      }),
    );
    expect(result.results.exit_reason).toBe("max_iterations");
    expect(plans.map((plan) => plan.maxCostUsd)).toEqual([0.46]);
  });

  it("calls an optimization simulated when only its improver is", async () => {
    const result = await runOptimize(options({ maxIterations: 0, createAgent: async () => paid().agent }));
    expect(result.results.simulated).toBe(true);
  });

  it("calls an evaluation cancelled when Ctrl-C comes after the budget held a run back", async () => {
    const controller = new AbortController();
    const agent = wordAgent({ simulated: false, costUsd: 1 });
    const run = agent.agent.run.bind(agent.agent);
    let calls = 0;
    agent.agent.run = async (request) => {
      const call = ++calls;
      // The first run spends the budget; the second ends after a third was held back for it, with Ctrl-C.
      if (call === 2) {
        await new Promise((done) => setTimeout(done, 300));
        controller.abort();
      }
      return run(request);
    };
    const result = await runOptimize(
      options({
        maxCostUsd: 0.5,
        concurrency: 2,
        signal: controller.signal,
        createAgent: async () => agent.agent,
        createImprover: async () => paidImprover(BETTER).judge,
      }),
    );
    expect(calls).toBe(2);
    expect(result.results).toMatchObject({ status: "interrupted", exit_reason: "cancelled" });
  });
});
