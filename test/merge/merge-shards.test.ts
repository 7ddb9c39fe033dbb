import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBenchmark } from "../../src/bench/index.js";
import type { Benchmark } from "../../src/contracts/benchmark.js";
import { mergeShards } from "../../src/merge/index.js";
import { tempDir } from "../e2e/helpers.js";
import {
  EVAL_RUNS,
  inFirst,
  REUSED,
  scored,
  shardInfo,
  TRIGGER_RUNS,
  triggerInFirst,
  triggerRecord,
  writeRun,
} from "./shard-fixture.js";

// mergeShards in process on shard folders written as `run --shard i/2` writes them, beside the plain run of the
// same plan: what the merge writes and reports must be what the plain run has.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

const rateLimits = (events: number, lowest: number, final: number, max: number) => ({
  events,
  reductions: events - 1,
  lowest_concurrency: lowest,
  final_concurrency: final,
  max_concurrency: max,
});

const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8"));

// The benchmark without the moment it was written.
const figures = (b: Benchmark) => ({ ...b, metadata: { ...b.metadata, timestamp: "" } });

async function plainRun(name: string): Promise<{ dir: string; benchmark: Benchmark }> {
  const at = await writeRun({
    dir: join(dir, name, "iteration-1"),
    evalRuns: EVAL_RUNS,
    triggerRuns: TRIGGER_RUNS,
  });
  return { dir: at, benchmark: (await writeBenchmark(at)).benchmark };
}

async function twoShards(name: string, more: { one?: object; two?: object } = {}) {
  const one = join(dir, name, "shard-1");
  const two = join(dir, name, "shard-2");
  await writeRun({
    dir: join(one, "iteration-1"),
    record: {
      ...shardInfo(1),
      started_at: "2026-01-15T10:00:00Z",
      finished_at: "2026-01-15T10:01:40Z",
      rate_limits: rateLimits(3, 2, 4, 8),
      ...more.one,
    },
    evalRuns: EVAL_RUNS.filter(inFirst),
    plan: { ...shardInfo(1, 2, "t1"), rate_limits: rateLimits(2, 3, 3, 6) },
    triggerRuns: TRIGGER_RUNS.filter(triggerInFirst),
  });
  await writeRun({
    dir: join(two, "iteration-1"),
    record: {
      ...shardInfo(2),
      started_at: "2026-01-15T10:00:05Z",
      finished_at: "2026-01-15T10:02:35Z",
      rate_limits: rateLimits(1, 5, 6, 6),
      ...more.two,
    },
    evalRuns: EVAL_RUNS.filter((r) => !inFirst(r)),
    plan: shardInfo(2, 2, "t1"),
    triggerRuns: TRIGGER_RUNS.filter((r) => !triggerInFirst(r)),
  });
  return { one, two };
}

describe("mergeShards of a complete split", () => {
  let plain: { dir: string; benchmark: Benchmark };
  let shards: { one: string; two: string };
  type Merged = Awaited<ReturnType<typeof mergeShards>>;
  // Each test merges on its own (a merge in beforeAll would count as no test's, and no mutant would be tried on it).
  const into = () => join(dir, "merged");
  beforeAll(async () => {
    plain = await plainRun("plain");
    shards = await twoShards("split");
  });
  // Given out of order: the merge sorts them by index.
  const merge = (target: string) => mergeShards({ shardDirs: [shards.two, shards.one], into: target });

  // writes the next iteration of --into with every run folder, grading and timing of the plain run
  const filesOfThePlainRun = async (result: Merged) => {
    expect(result.iterationDir).toBe(join(into(), "iteration-1"));
    const merged = result.iterationDir;
    for (const r of EVAL_RUNS) {
      const run = join(`eval-${r.eval}`, r.configuration, `run-${r.run}`);
      for (const file of ["timing.json", "outputs/metrics.json"])
        expect(await readFile(join(merged, run, file), "utf8")).toBe(
          await readFile(join(plain.dir, run, file), "utf8"),
        );
      if (r.grading !== null)
        expect(await readJson(join(merged, run, "grading.json"))).toEqual(
          await readJson(join(plain.dir, run, "grading.json")),
        );
    }
    for (const e of [1, 2])
      expect(await readJson(join(merged, `eval-${e}`, "eval_metadata.json"))).toEqual(
        await readJson(join(plain.dir, `eval-${e}`, "eval_metadata.json")),
      );
    for (const r of TRIGGER_RUNS)
      expect(
        await readJson(join(merged, "triggers", `query-${r.query}`, `run-${r.run}`, "trigger.json")),
      ).toEqual(triggerRecord(r));
    expect(result.evalRuns).toBe(8);
    expect(result.triggerRuns).toBe(6);
  };

  // gives the benchmark of the plain run, and writes it
  const benchmarkOfThePlainRun = async (result: Merged) => {
    expect(result.benchmark).toBeDefined();
    expect(figures(result.benchmark as Benchmark)).toEqual(figures(plain.benchmark));
    expect(figures(await readJson(join(result.iterationDir, "benchmark.json")))).toEqual(
      figures(plain.benchmark),
    );
    expect(result.run?.benchmark).toBe(result.benchmark);
  };

  // gives the trigger results of the plain run, scored over every shard's runs
  const triggerResultsOfThePlainRun = async (result: Merged) => {
    const whole = scored(TRIGGER_RUNS);
    expect(result.triggers?.results).toEqual(whole.results);
    expect(result.triggers?.summary).toEqual(whole.summary);
    expect(await readJson(join(result.iterationDir, "triggers", "trigger-results.json"))).toEqual(
      result.triggers,
    );
    expect(result.run?.triggers?.results).toBe(result.triggers);
  };

  // records one whole, complete iteration: no shard, where it came from, every shard's 429s
  const wholeRecord = async (result: Merged) => {
    const record = await readJson(join(result.iterationDir, "iteration.json"));
    expect(record.shard).toBeUndefined();
    expect(record.status).toBe("complete");
    expect(record.partial).toBeUndefined();
    expect(record.started_at).toBe("2026-01-15T10:00:00Z");
    expect(Date.parse(record.finished_at)).toBeGreaterThan(Date.parse("2026-01-15T10:02:35Z"));
    expect(record.merged_from).toEqual({ plan_hash: "p1", count: 2, shards: [1, 2], missing: [] });
    expect(result.mergedFrom).toEqual(record.merged_from);
    expect(record.rate_limits).toEqual({
      events: 4,
      reductions: 2,
      lowest_concurrency: 2,
      final_concurrency: 4,
      max_concurrency: 8,
    });
    const plan = await readJson(join(result.iterationDir, "triggers", "plan.json"));
    expect(plan.shard).toBeUndefined();
    expect(plan.status).toBe("complete");
    expect(plan.partial).toBeUndefined();
    expect(plan.merged_from).toEqual(record.merged_from);
    expect(plan.rate_limits).toEqual(rateLimits(2, 3, 3, 6));
    expect(plan.queries).toHaveLength(3);
    expect(result.partial).toBeUndefined();
    expect(result.simulated).toBe(false);
    expect(result.agents).toBeUndefined();
  };

  // writes the report and names it
  const reportNamed = async (result: Merged) => {
    expect(result.reportFile.startsWith(result.iterationDir)).toBe(true);
    expect(await readFile(result.reportFile, "utf8")).toContain("skillgym report — demo");
    expect(result.run?.reportFile).toBe(result.reportFile);
    expect(await readdir(result.iterationDir)).toEqual(
      expect.arrayContaining([
        "benchmark.json",
        "benchmark.md",
        "iteration.json",
        "triggers",
        "eval-1",
        "eval-2",
      ]),
    );
  };

  // reports each eval run as the run that made it did
  const evalRunsAsRun = async (result: Merged) => {
    const records = result.run?.evals?.records ?? [];
    expect(records.map((r) => r.spec.runDir)).toEqual(
      [
        "eval-1/with_skill/run-1",
        "eval-1/with_skill/run-2",
        "eval-1/without_skill/run-1",
        "eval-1/without_skill/run-2",
        "eval-2/with_skill/run-1",
        "eval-2/with_skill/run-2",
        "eval-2/without_skill/run-1",
        "eval-2/without_skill/run-2",
      ].map((r) => join(result.iterationDir, r)),
    );
    expect(records[0]).toStrictEqual({
      spec: {
        eval: {
          id: "1",
          name: "summarise",
          prompt: "do task 1",
          expectations: ["has a table", "cites a source"],
          checks: [],
          files: [],
          numericId: 1,
          fixtures: [],
        },
        evalName: "summarise",
        configuration: "with_skill",
        runNumber: 1,
        runDir: join(result.iterationDir, "eval-1/with_skill/run-1"),
        timeoutMs: 0,
      },
      outcome: "success",
      attempts: 1,
      durationMs: 12000,
      tokens: 1200,
      costUsd: 0.02,
      skipped: false,
      overheadMs: 0,
      judgeCostUsd: 0.001,
    });
    expect(records[1]).toMatchObject({ attempts: 2, durationMs: 14000, tokens: 1400, costUsd: 0.03 });
    expect(records[1]).not.toHaveProperty("judgeCostUsd");
    expect(records[1]).not.toHaveProperty("error");
    expect(records[1]).not.toHaveProperty("costUnknown");
    expect(records[1]).not.toHaveProperty("contaminated");
    expect(records[1]).not.toHaveProperty("reusedFrom");
    expect(records[3]).toMatchObject({ outcome: "agent_error", error: "the agent crashed", costUsd: 0.002 });
    expect(records[5]).toMatchObject({ reusedFrom: REUSED, costUsd: 0 });
    expect(records[6]).toMatchObject({ contaminated: true });
    expect(records[7]).toMatchObject({ costUsd: 0, costUnknown: true, tokens: 700 });
    expect(records[4]?.spec.eval).toMatchObject({ id: "2", name: "chart", numericId: 2 });
  };

  // reports each trigger run as the run that made it did
  const triggerRunsAsRun = async (result: Merged) => {
    const records = result.run?.triggers?.records ?? [];
    expect(records).toHaveLength(6);
    const first = records.find((r) => r.spec.runDir.endsWith(join("query-2", "run-2")));
    expect(first).toStrictEqual({
      spec: {
        queryIndex: 1,
        query: "what is the weather",
        shouldTrigger: false,
        runNumber: 2,
        syntheticName: "skill-x1",
        runDir: join(result.iterationDir, "triggers", "query-2", "run-2"),
      },
      queryIndex: 1,
      triggered: false,
      stolenBy: ["other-skill"],
      outcome: "success",
      attempts: 1,
      durationMs: 2002,
      skipped: false,
      record: triggerRecord(TRIGGER_RUNS[3] as (typeof TRIGGER_RUNS)[number]),
    });
    const timedOut = records.find((r) => r.spec.runDir.endsWith(join("query-3", "run-1")));
    expect(timedOut).toMatchObject({ error: "timed out", outcome: "timeout", queryIndex: 2 });
    const reused = records.find((r) => r.spec.runDir.endsWith(join("query-3", "run-2")));
    expect(reused?.reusedFrom).toEqual({ ...REUSED, cost_usd: 0.006 });
    expect(reused?.spec.shouldTrigger).toBe(true);
  };

  // adds up what the runs and their grading cost, what reuse saved, and takes the slowest shard's time
  const costAndTime = async (result: Merged) => {
    const run = result.run;
    // Eval runs 0.02+0.03+0.01+0.002+0.04+0+0.01 and one judge's 0.001; trigger runs 0.003+0.004+0.001+0.002+0.005.
    expect(run?.costUsd).toBeCloseTo(0.128, 10);
    expect(run?.savings).toEqual({ reused: 2, ran: 14, savedUsd: 0.056 });
    expect(run?.wallSeconds).toBe(150);
    expect(run?.simulated).toBe(false);
    expect(run?.budgetExhausted).toBe(false);
    expect(run?.cancelled).toBe(false);
    expect(run?.agent).toStrictEqual({ name: "claude-code" });
    expect(run).not.toHaveProperty("simScript");
    expect(run?.iterationDir).toBe(result.iterationDir);
    expect(run?.evals).toMatchObject({
      iterationDir: result.iterationDir,
      iteration: 0,
      resumed: false,
      simulated: false,
      cancelled: false,
      rateLimits: { events: 4, lowest_concurrency: 2 },
    });
    expect(run?.triggers).toMatchObject({
      iterationDir: result.iterationDir,
      resultsFile: join(result.iterationDir, "triggers", "trigger-results.json"),
      cancelled: false,
      simulated: false,
      rateLimits: rateLimits(2, 3, 3, 6),
    });
  };

  it("merges into the next iteration of --into the plain run's run folders, benchmark, trigger results, a whole record and a report", async () => {
    const result = await merge(into());
    await filesOfThePlainRun(result);
    await benchmarkOfThePlainRun(result);
    await triggerResultsOfThePlainRun(result);
    await wholeRecord(result);
    await reportNamed(result);
  });

  it("reports every run as the run that made it did, what they and their grading cost, and the slowest shard's time", async () => {
    const result = await merge(join(dir, "merged-runs"));
    await evalRunsAsRun(result);
    await triggerRunsAsRun(result);
    await costAndTime(result);
  });
});

describe("mergeShards of shards short of the plan", () => {
  it("refuses a shard not given, naming it, and writes nothing; --partial records its whole share", async () => {
    const { one } = await twoShards("lone");
    const into = join(dir, "lone-merged");
    await expect(mergeShards({ shardDirs: [one], into })).rejects.toThrow(
      "the shards do not hold the whole plan:\n  shard 2/2 missing: no folder given holds it (1 of 2 given)",
    );
    await expect(readdir(into)).rejects.toThrow();
    const result = await mergeShards({ shardDirs: [one], into, partial: true });
    const share = { eval: 4, trigger: 3 };
    const partial = {
      count: 2,
      planned_runs: { eval: 8, trigger: 6 },
      missing_runs: share,
      shards: [{ index: 2, state: "missing", planned_runs: share, missing_runs: share }],
    };
    expect(result.partial).toEqual(partial);
    expect(result.mergedFrom).toEqual({ plan_hash: "p1", count: 2, shards: [1], missing: [2] });
    const record = await readJson(join(result.iterationDir, "iteration.json"));
    expect(record).toMatchObject({ status: "interrupted", partial, merged_from: result.mergedFrom });
    expect(record.rate_limits).toEqual(rateLimits(3, 2, 4, 8));
    const plan = await readJson(join(result.iterationDir, "triggers", "plan.json"));
    expect(plan).toMatchObject({ status: "interrupted", partial, merged_from: result.mergedFrom });
    expect(plan.rate_limits).toEqual(rateLimits(2, 3, 3, 6));
    expect(result.evalRuns).toBe(4);
    expect(result.triggerRuns).toBe(3);
    expect(result.triggers?.results).toEqual(scored(TRIGGER_RUNS.filter(triggerInFirst)).results);
    // The benchmark of shard 1's runs: the other share's are not run.
    expect(result.benchmark?.runs.filter((r) => r.error === undefined).map((r) => r.eval_id)).toEqual([
      1, 1, 2, 2,
    ]);
    expect(result.run?.wallSeconds).toBe(100);
    expect(result.run?.evals?.rateLimits).toEqual(rateLimits(3, 2, 4, 8));
  });

  it("scores what an interrupted shard finished, reports its cut-off runs, and refuses it without --partial", async () => {
    const { one, two } = await twoShards("cut", {
      two: { status: "interrupted" },
    });
    const at = join(two, "iteration-1");
    // Its trigger runs were cut off before it wrote trigger-results.json: one was cancelled.
    const cutTriggers = TRIGGER_RUNS.filter((r) => !triggerInFirst(r)).map((r) =>
      r.query === 1 ? { ...r, outcome: "cancelled" } : r,
    );
    await writeRun({
      dir: at,
      record: null,
      plan: { ...shardInfo(2, 2, "t1"), status: "interrupted" },
      triggerRuns: cutTriggers,
      results: null,
    });
    await rm(join(at, "triggers", "trigger-results.json"));
    // Another was cut off before it wrote its trigger.json.
    await rm(join(at, "triggers", "query-2", "run-1", "trigger.json"));
    // One eval run was cut off before it wrote anything but its folder.
    await rm(join(at, "eval-2", "without_skill", "run-1"), { recursive: true });
    await mkdir(join(at, "eval-2", "without_skill", "run-1"));
    const into = join(dir, "cut-merged");
    await expect(mergeShards({ shardDirs: [one, two], into })).rejects.toThrow(
      `shard 2/2 (${two}) was interrupted: 1 of 4 eval runs and 2 of 3 trigger runs missing`,
    );
    const result = await mergeShards({ shardDirs: [one, two], into, partial: true });
    const whole = scored([
      ...TRIGGER_RUNS.filter(triggerInFirst),
      ...cutTriggers.filter((r) => !(r.query === 2 && r.run === 1)),
    ]);
    expect(result.triggers?.results).toEqual(whole.results);
    expect(result.partial?.missing_runs).toEqual({ eval: 1, trigger: 2 });
    expect(result.partial?.shards).toEqual([
      {
        index: 2,
        source: two,
        state: "interrupted",
        planned_runs: { eval: 4, trigger: 3 },
        missing_runs: { eval: 1, trigger: 2 },
      },
    ]);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("interrupted");
    const cut = result.run?.evals?.records.find((r) =>
      r.spec.runDir.endsWith(join("eval-2", "without_skill", "run-1")),
    );
    expect(cut).toStrictEqual({
      spec: expect.objectContaining({ evalName: "chart", runNumber: 1, configuration: "without_skill" }),
      outcome: "cancelled",
      attempts: 0,
      durationMs: 0,
      tokens: 0,
      costUsd: 0,
      skipped: false,
      overheadMs: 0,
    });
    expect(result.run?.evals?.cancelled).toBe(true);
    expect(result.run?.cancelled).toBe(false);
    expect(result.run?.triggers?.records).toHaveLength(3 + 2);
    expect(result.run?.savings.ran).toBe(8 - 1 + 6 - 2);
  });
});

describe("mergeShards of one part of a run", () => {
  it("merges trigger-only shards: no iteration.json, no benchmark, no eval runs reported", async () => {
    const shard = async (index: number, more: Record<string, unknown> = {}) =>
      writeRun({
        dir: join(dir, "triggers-only", `shard-${index}`),
        record: null,
        plan: shardInfo(index, 2, "t1"),
        triggerRuns: TRIGGER_RUNS.filter((r) => triggerInFirst(r) === (index === 1)),
        results: scored(
          TRIGGER_RUNS.filter((r) => triggerInFirst(r) === (index === 1)),
          more,
        ),
      });
    const agent = { name: "codex", version: "1.2.3" };
    const one = await shard(1, { agent, simulated: true });
    await mkdir(join(one, "eval-1"));
    await writeFile(join(one, "eval-1", "eval_metadata.json"), "{}");
    const two = await shard(2, { agent });
    const result = await mergeShards({ shardDirs: [one, two], into: join(dir, "triggers-only", "merged") });
    expect(result.benchmark).toBeUndefined();
    expect(result.evalRuns).toBe(0);
    expect(await readdir(result.iterationDir)).not.toContain("iteration.json");
    expect(result.triggers?.results).toEqual(scored(TRIGGER_RUNS).results);
    expect(result.triggers?.agent).toEqual(agent);
    expect(result.run?.agent).toEqual(agent);
    expect(result.run?.evals).toBeUndefined();
    expect(result.run).not.toHaveProperty("benchmark");
    expect(result.run?.wallSeconds).toBe(0);
    // A shard of the simulator makes the merge one.
    expect(result.simulated).toBe(true);
    expect(result.run?.simulated).toBe(true);
    expect(result.run?.triggers?.simulated).toBe(true);
    expect((await readJson(join(result.iterationDir, "triggers", "plan.json"))).status).toBe("complete");
    expect(result.run?.triggers).not.toHaveProperty("rateLimits");
    expect(await readFile(result.reportFile, "utf8")).toContain("skillgym report — demo");
    // An eval folder left in a trigger shard is no part of it.
    expect(await readdir(result.iterationDir)).not.toContain("eval-1");
  });

  it("merges eval-only shards of the simulator: no trigger results, the sim script and agent version kept", async () => {
    const shard = (index: number) =>
      writeRun({
        dir: join(dir, "evals-only", `shard-${index}`, "iteration-1"),
        record: {
          ...shardInfo(index),
          simulated: true,
          sim_script: "/scripts/sim.json",
          agent: { name: "claude-code", version: "2.0.1", mode: "default" },
        },
        evalRuns: EVAL_RUNS.filter((r) => inFirst(r) === (index === 1)),
        plan: null,
      });
    const result = await mergeShards({
      shardDirs: [await shard(1), await shard(2)],
      into: join(dir, "evals-only", "merged"),
    });
    expect(result.triggers).toBeUndefined();
    expect(result.triggerRuns).toBe(0);
    expect(await readdir(result.iterationDir)).not.toContain("triggers");
    expect(result.simulated).toBe(true);
    expect(result.run?.simulated).toBe(true);
    expect(result.run?.simScript).toBe("/scripts/sim.json");
    expect(result.run?.evals?.simScript).toBe("/scripts/sim.json");
    expect(result.run?.evals?.simulated).toBe(true);
    expect(result.run?.agent).toStrictEqual({ name: "claude-code", version: "2.0.1" });
    expect(result.run).not.toHaveProperty("triggers");
    expect(result.run?.evals).not.toHaveProperty("rateLimits");
    expect(result.run?.evals?.records).toHaveLength(8);
    expect(result.run?.costUsd).toBeCloseTo(0.113, 10);
  });

  it("names the first folder given that cannot be read, and refuses --into a shard's workspace", async () => {
    const { one, two } = await twoShards("unread");
    const none = join(dir, "unread", "none");
    const alsoNone = join(dir, "unread", "also-none");
    await expect(
      mergeShards({ shardDirs: [one, none, alsoNone], into: join(dir, "unread", "merged") }),
    ).rejects.toThrow(`${none}: no such folder`);
    await expect(
      mergeShards({ shardDirs: [alsoNone, one, none], into: join(dir, "unread", "merged") }),
    ).rejects.toThrow(`${alsoNone}: no such folder`);
    await expect(mergeShards({ shardDirs: [one, two], into: two })).rejects.toThrow(
      `--into ${two} is the shard folder ${two}`,
    );
    expect(await readdir(two)).toEqual(["iteration-1"]);
  });

  it("refuses shards of two plans before writing anything", async () => {
    const { one } = await twoShards("plans-a");
    const { two } = await twoShards("plans-b", { two: { skill_hash: "other" } });
    const into = join(dir, "plans-merged");
    await expect(mergeShards({ shardDirs: [one, two], into })).rejects.toThrow(
      "the shards do not belong to one plan",
    );
    await expect(readdir(into)).rejects.toThrow();
  });
});

describe("mergeShards of shards whose records and folders are not quite whole", () => {
  it("refuses a shard that says complete but lacks a run as incomplete; --partial records an interrupted merge", async () => {
    const { one, two } = await twoShards("short");
    await rm(join(two, "iteration-1", "eval-2", "without_skill", "run-1"), { recursive: true });
    const into = join(dir, "short-merged");
    await expect(mergeShards({ shardDirs: [one, two], into })).rejects.toThrow(
      `shard 2/2 (${two}) is incomplete: 1 of 4 eval runs missing`,
    );
    const result = await mergeShards({ shardDirs: [one, two], into, partial: true });
    expect(result.mergedFrom.missing).toEqual([]);
    expect(result.partial?.shards.map((s) => s.state)).toEqual(["incomplete"]);
    const record = await readJson(join(result.iterationDir, "iteration.json"));
    expect(record.status).toBe("interrupted");
    expect(record.partial).toEqual(result.partial);
    expect((await readJson(join(result.iterationDir, "triggers", "plan.json"))).status).toBe("interrupted");
    expect(result.evalRuns).toBe(7);
  });

  it("scores the runs of a shard that lost its trigger-results.json with the other's queries, and says so", async () => {
    const { one, two } = await twoShards("lost");
    await rm(join(one, "iteration-1", "triggers", "trigger-results.json"));
    const result = await mergeShards({ shardDirs: [two, one], into: join(dir, "lost-merged") });
    expect(result.partial).toBeUndefined();
    expect(result.triggers?.results).toEqual(scored(TRIGGER_RUNS).results);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("complete");
    expect((await readJson(join(result.iterationDir, "triggers", "plan.json"))).status).toBe("interrupted");
  });

  it("writes no trigger results when no shard wrote any", async () => {
    const { one, two } = await twoShards("none");
    for (const s of [one, two]) await rm(join(s, "iteration-1", "triggers", "trigger-results.json"));
    const result = await mergeShards({ shardDirs: [one, two], into: join(dir, "none-merged") });
    expect(result.triggers).toBeUndefined();
    expect(await readdir(join(result.iterationDir, "triggers"))).not.toContain("trigger-results.json");
    expect((await readJson(join(result.iterationDir, "triggers", "plan.json"))).status).toBe("interrupted");
    expect(result.run).not.toHaveProperty("triggers");
    expect(result.triggerRuns).toBe(6);
  });

  it("copies a run's files and folders but not a link in it, and reports no agent when none was recorded", async () => {
    const { one, two } = await twoShards("linked", { one: { agent: undefined }, two: { agent: undefined } });
    const outputs = join(one, "iteration-1", "eval-1", "with_skill", "run-1", "outputs");
    await mkdir(join(outputs, "charts", "svg"), { recursive: true });
    await writeFile(join(outputs, "charts", "svg", "a.svg"), "<svg/>");
    await symlink(join(outputs, "metrics.json"), join(outputs, "link.json"));
    const result = await mergeShards({ shardDirs: [one, two], into: join(dir, "linked-merged") });
    const merged = join(result.iterationDir, "eval-1", "with_skill", "run-1", "outputs");
    expect((await readdir(merged)).sort()).toEqual(["charts", "metrics.json"]);
    expect(await readFile(join(merged, "charts", "svg", "a.svg"), "utf8")).toBe("<svg/>");
    expect(result.run).not.toHaveProperty("agent");
  });
});
