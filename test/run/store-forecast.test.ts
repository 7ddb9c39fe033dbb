import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EvalOptions, runEvals } from "../../src/run/index.js";
import { forecastEvalRuns } from "../../src/run/store-forecast.js";
import { skillMd } from "../e2e/helpers.js";
import { type EvalBench, evalOptions, exists, startBench } from "./eval-fixtures.js";

// What `eval --dry-run` forecasts of the result store: runEvals fills a store on the test double, the forecast reads it.
let bench: EvalBench;
beforeAll(async () => {
  bench = await startBench({
    "forecast/SKILL.md": skillMd("forecast", "Writes a greeting card file.", "Write card.txt."),
    "forecast/evals/evals.json": JSON.stringify({
      evals: [
        { id: 1, prompt: "card: a greeting card for Ada", expectations: ["a card"] },
        { id: 3, prompt: "card: a greeting card for Bo", expectations: ["a card for Bo"] },
        // No expectations: a run of it needs no judge.
        { id: 2, prompt: "quiet: a farewell note", expectations: [] },
      ],
    }),
  });
});
afterAll(() => bench.close());

const options = (workspace: string, overrides: Partial<EvalOptions> = {}): EvalOptions =>
  evalOptions(bench, workspace, {
    skillPath: join(bench.dir, "forecast"),
    baseline: "none",
    // The grading a judge would write beside the run.
    afterRun: async (run) => {
      await writeFile(join(run.spec.runDir, "grading.json"), '{"graded":true}\n');
      return {};
    },
    ...overrides,
  });

// The forecast with the agent's creations counted, and the system temp folder pointed at a folder of the test's own.
async function forecast(workspace: string, grade: boolean, overrides: Partial<EvalOptions> = {}) {
  const opts = options(workspace, overrides);
  let agents = 0;
  const tmp = join(bench.dir, `tmp-${workspace}-${grade}-${Math.random().toString(36).slice(2)}`);
  await mkdir(tmp, { recursive: true });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    const result = await forecastEvalRuns(
      {
        ...opts,
        createAgent: (inputs) => {
          agents++;
          return opts.createAgent(inputs);
        },
      },
      grade,
    );
    return { result, agents, leftInTemp: await readdir(tmp) };
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

describe("the store forecast of eval runs", () => {
  it("without a store plans every run, and a judge call for each run of an eval with expectations", async () => {
    const { result, agents } = await forecast("ws-none", true);
    expect(result).toEqual({
      runs: 3,
      served: 0,
      toRun: 3,
      judgeServed: 0,
      judgeToRun: 2,
      workspace: join(bench.dir, "ws-none"),
    });
    expect(agents).toBe(0);

    const ungraded = await forecast("ws-none", false, { runs: 3 });
    expect(ungraded.result).toMatchObject({ runs: 9, toRun: 9, judgeToRun: 0 });
  });

  it("with a store not yet written serves nothing, names the store and starts no agent", async () => {
    const store = join(bench.dir, "never-written");
    const { result, agents } = await forecast("ws-empty", true, { store: { dir: store } });
    expect(result).toEqual({
      runs: 3,
      served: 0,
      toRun: 3,
      judgeServed: 0,
      judgeToRun: 2,
      workspace: join(bench.dir, "ws-empty"),
      storeDir: store,
    });
    expect(agents).toBe(0);
    expect(await exists(store)).toBe(false);
  });

  it("counts the stored runs and their gradings by the same judge, and leaves no temporary folder", async () => {
    const store = { dir: join(bench.dir, "cache") };
    const made = await runEvals(options("ws-made", { store }));
    expect(made.records.map((r) => r.outcome)).toEqual(["success", "success", "success"]);

    const same = await forecast("ws-next", true, { store });
    expect(same.result).toEqual({
      runs: 3,
      served: 3,
      toRun: 0,
      judgeServed: 2,
      judgeToRun: 0,
      workspace: join(bench.dir, "ws-next"),
      storeDir: store.dir,
    });
    expect(same.agents).toBe(1);
    expect(same.leftInTemp).toEqual([]);

    // Another judge grades the served run again; a second run of each eval is not stored.
    const other = await forecast("ws-next", true, { store: { ...store, judge: "other" }, runs: 2 });
    expect(other.result).toMatchObject({ runs: 6, served: 3, toRun: 3, judgeServed: 0, judgeToRun: 4 });

    // A judge left unnamed is the default judge.
    const named = await forecast("ws-next", true, { store: { ...store, judge: "default" } });
    expect(named.result).toMatchObject({ served: 3, judgeServed: 2, judgeToRun: 0 });

    // Without grading no judge call is forecast, served or not.
    const ungraded = await forecast("ws-next", false, { store });
    expect(ungraded.result).toMatchObject({ served: 3, judgeServed: 0, judgeToRun: 0 });

    // --fresh reads nothing.
    const fresh = await forecast("ws-next", true, { store: { ...store, fresh: true } });
    expect(fresh.result).toMatchObject({ served: 0, toRun: 3, judgeToRun: 2 });
  });

  it("takes a file where the store should be for a store not yet written", async () => {
    const store = join(bench.dir, "a-file");
    await writeFile(store, "not a store\n");
    const { result, agents } = await forecast("ws-file", true, { store: { dir: store } });
    expect(result).toMatchObject({ served: 0, toRun: 3, storeDir: store });
    expect(agents).toBe(0);
  });

  it("forecasts a judge call for a served run that was stored without a grading", async () => {
    const store = { dir: join(bench.dir, "cache-ungraded") };
    const { afterRun: _graded, ...ungraded } = options("ws-ungraded", { store });
    await runEvals(ungraded);
    const { result } = await forecast("ws-ungraded-next", true, { store });
    expect(result).toMatchObject({ served: 3, judgeServed: 0, judgeToRun: 2 });
  });
});
