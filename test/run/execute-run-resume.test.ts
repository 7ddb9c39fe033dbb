import { mkdir, rm } from "node:fs/promises";
import { basename, dirname, isAbsolute, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { type EarlierRun, type RunRecord, runEvals } from "../../src/run/index.js";
import { readJson, skillMd } from "../e2e/helpers.js";
import { type EvalBench, evalOptions, exists, startBench } from "./eval-fixtures.js";

// An eval run cancelled part-way and resumed: runEvals in this process on the test double and one sim.
let bench: EvalBench;
beforeAll(async () => {
  bench = await startBench({
    "resumer/SKILL.md": skillMd("resumer", "Writes a greeting card file.", "Write card.txt."),
    "resumer/evals/evals.json": JSON.stringify({
      env: ["RESUMER_TOKEN"],
      evals: [
        { id: 1, prompt: "card: a greeting card for Ada", expectations: ["a card"] },
        { id: 2, prompt: "big: a long card", expectations: ["a card"] },
        { id: 3, prompt: "quiet: a note", expectations: ["a note"] },
      ],
    }),
  });
});
afterAll(() => bench.close());

const line = (r: RunRecord) => `${r.spec.evalName} ${r.outcome}${r.skipped ? " skipped" : ""}`;

describe("a cancelled eval run, resumed", () => {
  it("keeps the runs that finished, and on resume hands only the earlier successes to afterEarlierRun", async () => {
    const options = (extra: Parameters<typeof evalOptions>[2]) =>
      evalOptions(bench, "ws-resume", {
        skillPath: join(bench.dir, "resumer"),
        baseline: "none",
        concurrency: 1,
        outputLimits: { totalBytes: 1000 },
        ...extra,
      });
    const controller = new AbortController();
    let ended = 0;
    const first = await runEvals(
      options({
        signal: controller.signal,
        reporter: {
          onRunEnd: () => {
            ended += 1;
            if (ended === 2) controller.abort();
          },
        },
      }),
    );
    expect(first.cancelled).toBe(true);
    expect(first.records.map(line)).toEqual(["eval-1 success", "eval-2 output_limit"]);
    expect(await readJson(join(first.iterationDir, "iteration.json"))).toMatchObject({
      status: "interrupted",
    });

    const earlier: EarlierRun[] = [];
    const goneAtEnd: Promise<boolean>[] = [];
    const base = await createClaudeCodeAgent({ binary: bench.binary, simulatorUrl: bench.sim.url });
    const second = await runEvals(
      options({
        createAgent: async () => ({
          ...base,
          sandbox: { bwrap: "/opt/bwrap", network: { kind: "simulator", url: bench.sim.url } },
        }),
        afterEarlierRun: async (run) => {
          earlier.push(run);
          // A re-grading stages the earlier run's workspace in the folder it is given.
          await mkdir(run.workspace.dir, { recursive: true });
          return { judgeCostUsd: 0.3 };
        },
        reporter: {
          onRunEnd: (record) => {
            const dir = earlier.find((e) => e.spec === record.spec)?.workspace.dir;
            if (dir) goneAtEnd.push(exists(dir).then((found) => !found));
          },
        },
      }),
    );
    expect(second.iterationDir).toBe(first.iterationDir);
    expect(second.resumed).toBe(true);
    expect(second.cancelled).toBe(false);
    expect(second.records.map(line)).toEqual([
      "eval-1 success skipped",
      "eval-2 output_limit skipped",
      "eval-3 success",
    ]);
    const [card, long] = second.records;
    expect(card).toEqual({
      spec: card?.spec,
      outcome: "success",
      attempts: 0,
      durationMs: 0,
      tokens: 0,
      costUsd: 0,
      skipped: true,
      overheadMs: 0,
      judgeCostUsd: 0.3,
    });
    expect(long && "judgeCostUsd" in long).toBe(false);
    expect(earlier.map((e) => e.spec.evalName)).toEqual(["eval-1"]);
    expect(earlier[0]).toMatchObject({
      skillName: "resumer",
      passEnv: ["RESUMER_TOKEN"],
      sandbox: { bwrap: "/opt/bwrap" },
      workspace: {
        configuration: "with_skill",
        skill: { dir: join(bench.dir, "resumer"), name: "resumer" },
        skillsFolder: ".claude/skills",
      },
    });
    expect(basename(earlier[0]?.workspace.dir ?? "")).toBe("1-with_skill-1-earlier");
    expect(await Promise.all(goneAtEnd)).toEqual([true]);
    // The earlier output_limit run keeps its own record.
    expect(
      await readJson(join(second.iterationDir, "eval-2", "with_skill", "run-1", "timing.json")),
    ).toMatchObject({ outcome: "output_limit" });
    expect(await readJson(join(second.iterationDir, "iteration.json"))).toMatchObject({ status: "complete" });
  });

  it("on resume keeps no judge cost for a run its hook did not grade, and keeps the earlier run's folder with --keep-workspaces", async () => {
    const options = (extra: Parameters<typeof evalOptions>[2]) =>
      evalOptions(bench, "ws-regrade", {
        skillPath: join(bench.dir, "resumer"),
        baseline: "none",
        only: ["1"],
        ...extra,
      });
    await runEvals(options({}));
    // A hook that neither grades nor stages the folder it is given.
    const ungraded = await runEvals(options({ resume: true, afterEarlierRun: async () => ({}) }));
    expect(ungraded.records.map(line)).toEqual(["eval-1 success skipped"]);
    expect(ungraded.records[0]).not.toHaveProperty("judgeCostUsd");

    let staged = "";
    await runEvals(
      options({
        resume: true,
        keepWorkspaces: true,
        afterEarlierRun: async (run) => {
          staged = run.workspace.dir;
          await mkdir(run.workspace.dir, { recursive: true });
          return {};
        },
      }),
    );
    // The kept workspace's own temporary root, and nothing else: a bug that empties the path removes no other folder.
    const root = dirname(staged);
    try {
      expect(await exists(staged)).toBe(true);
      expect(basename(root)).toMatch(/^skillgym-/);
    } finally {
      if (isAbsolute(root) && basename(root).startsWith("skillgym-"))
        await rm(root, { recursive: true, force: true });
    }
  });
});
