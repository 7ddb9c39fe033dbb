import { existsSync } from "node:fs";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { createBudget, type FinishedRun, runEvals } from "../../src/run/index.js";
import { readJson, skillMd } from "../e2e/helpers.js";
import { fakeAgent } from "../tune/fake-agent.js";
import { type EvalBench, evalOptions, exists, startBench } from "./eval-fixtures.js";

// What runEvals' options change: refusals before any agent, the baseline, --adaptive, --keep-workspaces.
let bench: EvalBench;
beforeAll(async () => {
  bench = await startBench({
    "greeter-v1/SKILL.md": skillMd(
      "greeter-v1",
      "Writes a greeting card file.",
      "OLD-VERSION: write card.txt.",
    ),
    "greeter-v1/notes.md": "Notes of the earlier version.\n",
    "solo/SKILL.md": skillMd("solo", "Writes a greeting card file.", "Write card.txt."),
    "solo/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "card: a greeting card for Ada", expectations: ["a card"] }],
    }),
  });
});
afterAll(() => bench.close());

async function refusal(options: Parameters<typeof runEvals>[0]): Promise<SkillgymError> {
  const error = await runEvals(options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

describe("runEvals refuses before any agent is made", () => {
  const noAgent = async () => {
    throw new Error("no agent should be made");
  };
  const graded = async () => ({});

  it("refuses --adaptive without a baseline, without grading, or with --max-runs below --runs", async () => {
    const none = await refusal(
      evalOptions(bench, "ws-refused", {
        baseline: "none",
        adaptive: { maxRuns: 3 },
        afterRun: graded,
        createAgent: noAgent,
      }),
    );
    expect([none.code, none.message, none.hint]).toEqual([
      "USAGE",
      "--adaptive compares with_skill with a baseline; --baseline none has none",
      "use --baseline without_skill or an earlier version, or drop --adaptive",
    ]);
    const ungraded = await refusal(
      evalOptions(bench, "ws-refused", { adaptive: { maxRuns: 3 }, createAgent: noAgent }),
    );
    expect([ungraded.code, ungraded.message, ungraded.hint]).toEqual([
      "USAGE",
      "--adaptive decides on the gradings; --no-grade leaves none",
      "drop --no-grade or --adaptive",
    ]);
    const below = await refusal(
      evalOptions(bench, "ws-refused", {
        runs: 3,
        adaptive: { maxRuns: 2 },
        afterRun: graded,
        createAgent: noAgent,
      }),
    );
    expect([below.code, below.message, below.hint]).toEqual([
      "USAGE",
      "--max-runs 2 is below --runs 3",
      "--max-runs is the most runs an eval gets per configuration, the fixed --runs included",
    ]);
    expect(await exists(join(bench.dir, "ws-refused"))).toBe(false);
  });

  it("refuses a workspace it cannot write to, naming it", async () => {
    const blocked = join(bench.dir, "blocked");
    await writeFile(blocked, "a file, not a folder\n");
    const error = await refusal(evalOptions(bench, "blocked", { createAgent: noAgent }));
    expect(error.code).toBe("WORKSPACE");
    expect(error.message).toMatch(new RegExp(`^cannot write to the workspace ${blocked}: EEXIST`));
    expect(error.hint).toBe("choose a writable folder with --workspace");
  });
});

describe("runEvals' options", () => {
  it("runs an earlier version of the skill as old_skill, staged under the skill's name", async () => {
    const staged: Record<string, string> = {};
    const summary = await runEvals(
      evalOptions(bench, "ws-old", {
        skillPath: join(bench.dir, "solo"),
        baseline: join(bench.dir, "greeter-v1"),
        afterRun: async (run) => {
          staged[run.spec.configuration] = await readFile(
            join(run.workspaceDir, ".claude", "skills", "solo", "SKILL.md"),
            "utf8",
          ).catch(() => "none");
          return {};
        },
      }),
    );
    expect(summary.records.map((r) => [r.spec.configuration, r.outcome]).sort()).toEqual([
      ["old_skill", "success"],
      ["with_skill", "success"],
    ]);
    expect(staged.old_skill).toContain("OLD-VERSION");
    expect(staged.with_skill).not.toContain("OLD-VERSION");
    expect((await readJson(join(summary.iterationDir, "iteration.json"))).plan).toEqual({
      evals: [1],
      configurations: ["with_skill", "old_skill"],
      runs_per_configuration: 1,
      baseline_skill_path: join(bench.dir, "greeter-v1"),
    });
    // The old_skill run's activation counts the earlier version's files, not the skill under test's.
    const activation = (config: string) =>
      readJson(join(summary.iterationDir, "eval-1", config, "run-1", "activation.json"));
    expect((await activation("old_skill")).bundled_files).toEqual(["SKILL.md", "notes.md"]);
    expect((await activation("with_skill")).bundled_files).toEqual(["SKILL.md"]);
  });

  it("keeps the temp root and the last attempt's folder with --keep-workspaces", async () => {
    let finished: FinishedRun | undefined;
    await runEvals(
      evalOptions(bench, "ws-keep", {
        skillPath: join(bench.dir, "solo"),
        baseline: "none",
        keepWorkspaces: true,
        afterRun: async (run) => {
          finished = run;
          return {};
        },
      }),
    );
    const attempt = dirname(finished?.workspaceDir ?? "");
    const tempRoot = dirname(attempt);
    try {
      expect(basename(attempt)).toBe("1-with_skill-1.run-1.a1");
      expect(await readFile(join(attempt, "work", "card.txt"), "utf8")).toBe("Hello, Ada!\n");
      expect(await readFile(join(tempRoot, ".skillgym-keep"), "utf8")).toBe("kept for inspection\n");
    } finally {
      await rm(tempRoot, { recursive: true, force: true });
    }
  });

  it("leaves the temp root unmarked without --keep-workspaces, for a later sweep to remove should the run die", async () => {
    const marked: boolean[] = [];
    const { agent } = fakeAgent([
      {
        onStart: (request) => marked.push(existsSync(join(dirname(dirname(request.cwd)), ".skillgym-keep"))),
      },
    ]);
    await runEvals(
      evalOptions(bench, "ws-unkept", {
        skillPath: join(bench.dir, "solo"),
        baseline: "none",
        createAgent: async () => agent,
      }),
    );
    expect(marked).toEqual([false]);
  });

  it("adds paired runs for an uncertain eval up to --max-runs, and counts them in the plan", async () => {
    const rounds: unknown[] = [];
    const summary = await runEvals(
      evalOptions(bench, "ws-adaptive", {
        skillPath: join(bench.dir, "solo"),
        adaptive: { maxRuns: 2 },
        afterRun: async () => ({}),
        reporter: { onMoreRuns: (info) => rounds.push(info) },
      }),
    );
    expect(rounds).toEqual([{ added: 2, evals: ["eval-1"] }]);
    expect(
      summary.records.map((r) => `${r.spec.configuration} ${r.spec.runNumber} ${r.outcome}`).sort(),
    ).toEqual([
      "with_skill 1 success",
      "with_skill 2 success",
      "without_skill 1 success",
      "without_skill 2 success",
    ]);
    expect(await readdir(join(summary.iterationDir, "eval-1", "without_skill"))).toEqual(["run-1", "run-2"]);
    // The added runs are part of the plan: every planned run ran, so the iteration is complete.
    expect((await readJson(join(summary.iterationDir, "iteration.json"))).status).toBe("complete");
  });

  it("stops at the budget, adding no round, and leaves the iteration interrupted", async () => {
    const rounds: unknown[] = [];
    const budget = createBudget(0.65, 0.1);
    const summary = await runEvals(
      evalOptions(bench, "ws-budget", {
        skillPath: join(bench.dir, "solo"),
        concurrency: 1,
        budget,
        adaptive: { maxRuns: 2 },
        // What the judge costs counts against the budget as well as what the agent costs.
        afterRun: async () => ({ judgeCostUsd: 0.6 }),
        reporter: { onMoreRuns: (info) => rounds.push(info) },
      }),
    );
    expect(summary.records.map((r) => [r.spec.configuration, r.judgeCostUsd])).toEqual([["with_skill", 0.6]]);
    expect(budget).toMatchObject({ exhausted: true, spentUsd: 0.6 });
    expect(rounds).toEqual([]);
    expect(summary.cancelled).toBe(false);
    expect((await readJson(join(summary.iterationDir, "iteration.json"))).status).toBe("interrupted");
  });

  it("starts the next iteration after a finished one, recording a plain agent as not sandboxed", async () => {
    const options = evalOptions(bench, "ws-twice", { skillPath: join(bench.dir, "solo"), baseline: "none" });
    const first = await runEvals(options);
    const second = await runEvals(options);
    expect([first.iteration, second.iteration, second.resumed]).toEqual([1, 2, false]);
    const record = await readJson(join(second.iterationDir, "iteration.json"));
    expect(record).toMatchObject({ status: "complete", sandbox: false, simulated: true });
    expect(record).not.toHaveProperty("sim_script");
    expect(second).not.toHaveProperty("simScript");
  });

  it("accepts --max-runs equal to --runs, adding no run", async () => {
    const rounds: unknown[] = [];
    const summary = await runEvals(
      evalOptions(bench, "ws-adaptive-equal", {
        skillPath: join(bench.dir, "solo"),
        adaptive: { maxRuns: 1 },
        afterRun: async () => ({}),
        reporter: { onMoreRuns: (info) => rounds.push(info) },
      }),
    );
    expect(summary.records.map((r) => r.outcome)).toEqual(["success", "success"]);
    expect(rounds).toEqual([]);
  });

  it("adds rounds while the user's signal stands, and none once it is aborted", async () => {
    const go = async (workspace: string, abortAfterFirstRound: boolean) => {
      const controller = new AbortController();
      const rounds: unknown[] = [];
      let finished = 0;
      const summary = await runEvals(
        evalOptions(bench, workspace, {
          skillPath: join(bench.dir, "solo"),
          concurrency: 1,
          signal: controller.signal,
          adaptive: { maxRuns: 2 },
          afterRun: async () => {
            finished += 1;
            if (abortAfterFirstRound && finished === 2) controller.abort();
            return {};
          },
          reporter: { onMoreRuns: (info) => rounds.push(info) },
        }),
      );
      return { summary, rounds };
    };
    const standing = await go("ws-adaptive-signal", false);
    expect(standing.rounds).toEqual([{ added: 2, evals: ["eval-1"] }]);
    expect(standing.summary.records).toHaveLength(4);
    const aborted = await go("ws-adaptive-aborted", true);
    expect(aborted.rounds).toEqual([]);
    expect(aborted.summary.records).toHaveLength(2);
    expect(aborted.summary.cancelled).toBe(true);
  });

  it("ends cancelled and interrupted when a run was cancelled, though the user's signal was never given", async () => {
    const { agent } = fakeAgent([{ outcome: "cancelled", message: "cancelled by the user" }]);
    const summary = await runEvals(
      evalOptions(bench, "ws-run-cancelled", {
        skillPath: join(bench.dir, "solo"),
        baseline: "none",
        createAgent: async () => agent,
      }),
    );
    expect(summary.records.map((r) => r.outcome)).toEqual(["cancelled"]);
    expect(summary.cancelled).toBe(true);
    expect((await readJson(join(summary.iterationDir, "iteration.json"))).status).toBe("interrupted");
  });

  it("ends interrupted but not cancelled when the budget allows no run at all", async () => {
    const summary = await runEvals(
      evalOptions(bench, "ws-no-budget", {
        skillPath: join(bench.dir, "solo"),
        baseline: "none",
        budget: createBudget(0.05, 0.1),
      }),
    );
    expect(summary.records).toEqual([]);
    expect(summary.cancelled).toBe(false);
    expect((await readJson(join(summary.iterationDir, "iteration.json"))).status).toBe("interrupted");
  });
});
