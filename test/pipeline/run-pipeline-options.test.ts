import { readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { runPipeline } from "../../src/pipeline/index.js";
import type { PipelineOptions } from "../../src/pipeline/options.js";
import { startSim } from "../../src/sim/index.js";
import { fastRetry, readJson, writeTree } from "../e2e/helpers.js";
import { cardPipelineOptions, useCardBench } from "./pipeline-fixtures.js";

// What runPipeline passes on to the eval runs, their grading and the trigger runs.
const bench = useCardBench();

const pipeline = (workspace: string, overrides: Partial<PipelineOptions> = {}) =>
  runPipeline(
    cardPipelineOptions(bench.dir, () => bench.simulated(), {
      workspace: join(bench.dir, workspace),
      baseline: "none",
      ...overrides,
    }),
  );

describe("runPipeline's options", () => {
  it("refuses --adaptive without a baseline to compare with", async () => {
    await expect(pipeline("adaptive", { adaptive: { maxRuns: 3 } })).rejects.toThrow(
      "--adaptive compares with_skill with a baseline; --baseline none has none",
    );
  });

  it("keeps the runs' temporary folder with --keep-workspaces", async () => {
    const ours = `skillgym-run.${process.pid}.`;
    const marked = async () => {
      const names = (await readdir(tmpdir())).filter((name) => name.startsWith(ours));
      const kept: string[] = [];
      for (const name of names) {
        const marker = await readFile(join(tmpdir(), name, ".skillgym-keep"), "utf8").catch(() => undefined);
        if (marker === "kept for inspection\n") kept.push(name);
      }
      return kept;
    };
    const before = new Set(await marked());
    await pipeline("keep", { stage: "evals", only: ["2"], keepWorkspaces: true });
    const added = (await marked()).filter((name) => !before.has(name));
    try {
      expect(added).toHaveLength(1);
    } finally {
      for (const name of added) await rm(join(tmpdir(), name), { recursive: true, force: true });
    }
  }, 60_000);

  it("tells of a grading that failed, with the run's folder", async () => {
    const failed: string[] = [];
    const result = await pipeline("grading", {
      stage: "evals",
      only: ["1"],
      createGrader: async () => async () => {
        throw new Error("the judge is out");
      },
      onGradingError: (runDir) => failed.push(runDir),
    });
    expect(failed).toEqual([join(result.iterationDir, "eval-1", "with_skill", "run-1")]);
  }, 60_000);

  it("retries a busy service only as often as it is told", async () => {
    const busy = await startSim({
      script: SimScript.parse({
        rules: [
          {
            match: "Make card",
            fault: { status: 529, sessions: 1 },
            steps: [{ write: { path: "card.txt", content: "Hello Ada" } }],
          },
        ],
      }),
    });
    try {
      const result = await pipeline("busy", {
        stage: "evals",
        only: ["2"],
        grade: false,
        retry: { ...fastRetry, attempts: 1 },
        createAgent: () => createClaudeCodeAgent({ binary: bench.binary, simulatorUrl: busy.url }),
      });
      expect(result.evals?.records.map((r) => [r.outcome === "success", r.attempts])).toEqual([[false, 1]]);
    } finally {
      await busy.close();
    }
  }, 60_000);

  it("screens the trigger runs by replay with --screen replay", async () => {
    const result = await pipeline("screened", { stage: "triggers", screen: { kind: "replay" } });
    expect(result.triggers?.results.screen).toMatchObject({ kind: "replay" });
  }, 60_000);

  it("grades on resume a run left without its grading, and tells of it", async () => {
    const first = await pipeline("regrade", {
      stage: "evals",
      only: ["1"],
      createGrader: async () => async () => {
        throw new Error("the judge is out");
      },
    });
    const graded: string[] = [];
    const resumed = await pipeline("regrade", {
      stage: "evals",
      only: ["1"],
      resume: true,
      onGraded: (runDir) => graded.push(runDir),
    });
    expect(resumed.iterationDir).toBe(first.iterationDir);
    expect(graded).toEqual([join(first.iterationDir, "eval-1", "with_skill", "run-1")]);
  }, 60_000);

  it("does not tell of a grading cut short by a cancel as failed", async () => {
    const controller = new AbortController();
    const failed: string[] = [];
    const result = await pipeline("grading-cancelled", {
      stage: "evals",
      only: ["1"],
      signal: controller.signal,
      createGrader: async () => async () => {
        controller.abort();
        throw new Error("the judge was stopped");
      },
      onGradingError: (runDir) => failed.push(runDir),
    });
    expect(result.cancelled).toBe(true);
    expect(failed).toEqual([]);
  }, 60_000);

  it("runs the trigger queries in the clean room and in a copy of the project after a prior conversation side by side", async () => {
    await writeTree(bench.dir, {
      "project/README.md": "A project.",
      "context.json": JSON.stringify([
        { role: "user", content: "Can you look at the parser tests?" },
        { role: "assistant", content: "Yes." },
      ]),
    });
    const result = await pipeline("conditions", {
      stage: "triggers",
      projectRoot: join(bench.dir, "project"),
      context: join(bench.dir, "context.json"),
      conditions: { clean: true, real: true },
    });
    expect(await readJson(join(result.iterationDir, "triggers", "plan.json"))).toMatchObject({
      side_by_side: ["clean", "real"],
      project_root: join(bench.dir, "project"),
      context: join(bench.dir, "context.json"),
    });
    expect(result.triggers?.records).toHaveLength(4);
  }, 60_000);
});
