import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SkillgymError } from "../../src/errors.js";
import { readAnyShard, readShard } from "../../src/merge/index.js";
import { shardIterationDir } from "../../src/merge/read-shard.js";
import { shardTriggerResults } from "../../src/merge/shard-trigger-results.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const write = async (file: string, value: unknown) => {
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, typeof value === "string" ? value : JSON.stringify(value));
};

const iteration = (status: string, more: Record<string, unknown> = {}) => ({
  skill_name: "s",
  skill_path: "/s",
  skill_hash: "h",
  status,
  started_at: "2026-01-01T00:00:00Z",
  plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 2 },
  shard: { index: 1, count: 2, plan_hash: "p" },
  ...more,
});

const triggerPlan = (status: string, more: Record<string, unknown> = {}) => ({
  skill_name: "s",
  skill_hash: "h",
  description: "d",
  queries: ["q1", "q2"],
  runs_per_query: 2,
  with_skills: [],
  status,
  shard: { index: 1, count: 2, plan_hash: "t" },
  ...more,
});

const trigger = (outcome: string, triggered: boolean, more: Record<string, unknown> = {}) => ({
  query: "q",
  should_trigger: true,
  triggered,
  stolen_by: [],
  outcome,
  attempts: 1,
  duration_ms: 5,
  synthetic_name: "x",
  skills_loaded: [],
  ...more,
});

describe("shardIterationDir", () => {
  it("takes an iteration folder as it is and a workspace by its latest iteration", async () => {
    await write(join(dir, "ws", "iteration-2", "iteration.json"), "{}");
    await write(join(dir, "ws", "iteration-10", "iteration.json"), "{}");
    expect(await shardIterationDir(join(dir, "ws"))).toBe(join(dir, "ws", "iteration-10"));
    expect(await shardIterationDir(join(dir, "ws", "iteration-2"))).toBe(join(dir, "ws", "iteration-2"));
    await mkdir(join(dir, "t", "triggers"), { recursive: true });
    expect(await shardIterationDir(join(dir, "t"))).toBe(join(dir, "t"));
  });

  it("refuses a folder that does not exist, one with no iteration, and a catalog", async () => {
    await expect(shardIterationDir(join(dir, "none"))).rejects.toThrow(
      `${join(dir, "none")}: no such folder`,
    );
    await mkdir(join(dir, "empty"));
    await expect(shardIterationDir(join(dir, "empty"))).rejects.toThrow("holds no iteration");
    await write(join(dir, "cat", "catalog.json"), "{}");
    await expect(shardIterationDir(join(dir, "cat"))).rejects.toThrow("is a catalog folder");
    await mkdir(join(dir, "cat2", "catalog-3"), { recursive: true });
    await expect(shardIterationDir(join(dir, "cat2"))).rejects.toThrow("is a catalog folder");
  });

  it("takes a workspace that holds catalog-<N> folders beside its iterations for a workspace", async () => {
    await mkdir(join(dir, "ws", "catalog-1"), { recursive: true });
    await write(join(dir, "ws", "iteration-1", "iteration.json"), "{}");
    expect(await shardIterationDir(join(dir, "ws"))).toBe(join(dir, "ws", "iteration-1"));
  });
});

describe("readShard", () => {
  it("counts every run folder of a complete shard within the plan's run numbers", async () => {
    const it1 = join(dir, "a", "iteration-1");
    await write(join(it1, "iteration.json"), iteration("complete"));
    for (const run of ["run-1", "run-2", "run-3"])
      await write(join(it1, "eval-1", "with_skill", run, "timing.json"), { outcome: "cancelled" });
    const shard = await readShard(join(dir, "a"));
    expect(shard.dir).toBe(it1);
    expect(shard.source).toBe(join(dir, "a"));
    expect(shard.iteration?.shard.index).toBe(1);
    expect(shard.triggerPlan).toBeUndefined();
    expect(shard.evalRuns).toHaveLength(3);
    expect(shard.finished).toEqual({ evalRuns: 2, triggerRuns: 0 });
  });

  it("counts every trigger run folder of a complete shard, and no run past the plan's numbers (run-10 and on too)", async () => {
    const it1 = join(dir, "c", "iteration-1");
    await write(join(it1, "iteration.json"), iteration("complete"));
    for (const run of ["run-1", "run-10"])
      await write(join(it1, "eval-1", "with_skill", run, "timing.json"), { outcome: "success" });
    await write(join(it1, "triggers", "plan.json"), triggerPlan("complete"));
    // A complete shard's runs all ended: a folder whose record is gone still counts.
    await mkdir(join(it1, "triggers", "query-1", "run-1"), { recursive: true });
    await write(join(it1, "triggers", "query-1", "run-2", "trigger.json"), trigger("cancelled", false));
    await write(join(it1, "triggers", "query-2", "run-12", "trigger.json"), trigger("success", true));
    const shard = await readShard(join(dir, "c"));
    expect(shard.evalRuns).toHaveLength(2);
    expect(shard.triggerRuns).toHaveLength(3);
    expect(shard.finished).toEqual({ evalRuns: 1, triggerRuns: 2 });
  });

  it("reads a run's number from its own folder, not from an eval id that looks like one", async () => {
    const it1 = join(dir, "e", "iteration-1");
    await write(
      join(it1, "iteration.json"),
      iteration("complete", {
        plan: { evals: ["run-9"], configurations: ["with_skill"], runs_per_configuration: 2 },
      }),
    );
    for (const run of ["run-1", "run-2"])
      await write(join(it1, "eval-run-9", "with_skill", run, "timing.json"), { outcome: "success" });
    const shard = await readShard(join(dir, "e"));
    expect(shard.evalRuns).toHaveLength(2);
    expect(shard.finished).toEqual({ evalRuns: 2, triggerRuns: 0 });
  });

  it("counts, in a shard not complete, only the runs whose record says they ended", async () => {
    const it1 = join(dir, "a");
    await write(join(it1, "iteration.json"), iteration("interrupted"));
    await write(join(it1, "eval-1", "with_skill", "run-1", "timing.json"), { outcome: "success" });
    await write(join(it1, "eval-1", "with_skill", "run-2", "timing.json"), { outcome: "cancelled" });
    await write(join(it1, "triggers", "plan.json"), triggerPlan("running"));
    await write(join(it1, "triggers", "query-1", "run-1", "trigger.json"), trigger("success", true));
    await write(join(it1, "triggers", "query-1", "run-2", "trigger.json"), trigger("agent_error", false));
    await mkdir(join(it1, "triggers", "query-2", "run-1"), { recursive: true });
    await write(join(it1, "triggers", "query-2", "run-3", "trigger.json"), trigger("success", true));
    const shard = await readShard(it1);
    expect(shard.triggerRuns).toHaveLength(4);
    expect(shard.finished).toEqual({ evalRuns: 1, triggerRuns: 2 });
    expect(shard.triggerResults).toBeUndefined();
  });

  it("refuses an iteration or trigger plan without a shard, a folder with neither, and a broken record", async () => {
    await write(join(dir, "a", "iteration.json"), { ...iteration("complete"), shard: undefined });
    await expect(readShard(join(dir, "a"))).rejects.toThrow("iteration.json has no shard; it is not a shard");
    await write(join(dir, "b", "triggers", "plan.json"), { ...triggerPlan("complete"), shard: undefined });
    await expect(readShard(join(dir, "b"))).rejects.toThrow("plan.json has no shard; it is not a shard");
    await mkdir(join(dir, "c", "triggers"), { recursive: true });
    await expect(readShard(join(dir, "c"))).rejects.toThrow(
      "has neither iteration.json nor triggers/plan.json",
    );
    await write(join(dir, "d", "iteration.json"), "{not json");
    await expect(readShard(join(dir, "d"))).rejects.toThrow(join(dir, "d", "iteration.json"));
  });
});

describe("shardTriggerResults", () => {
  it("scores the finished runs of a shard cut short with the queries and threshold of one that wrote results", async () => {
    const t = join(dir, "t");
    await write(join(t, "triggers", "plan.json"), triggerPlan("interrupted"));
    await write(join(t, "triggers", "query-1", "run-1", "trigger.json"), trigger("success", true));
    await write(join(t, "triggers", "query-1", "run-2", "trigger.json"), trigger("cancelled", true));
    await write(
      join(t, "triggers", "query-2", "run-1", "trigger.json"),
      trigger("success", true, { stolen_by: ["other"] }),
    );
    await write(
      join(t, "triggers", "query-2", "run-2", "trigger.json"),
      trigger("agent_error", false, { error: "timeout" }),
    );
    const shard = await readShard(t);
    const like = {
      skill_name: "s",
      description: "d",
      threshold: 0.9,
      results: [
        { query: "q1", should_trigger: true, trigger_rate: 1, triggers: 1, runs: 1, errors: 0, pass: true },
        { query: "q2", should_trigger: false, trigger_rate: 0, triggers: 0, runs: 1, errors: 0, pass: true },
      ],
      summary: { total: 2, passed: 2, failed: 0, undecided: 0, accuracy: 1 },
    } as never;
    const results = await shardTriggerResults(shard, like);
    expect(results?.threshold).toBe(0.9);
    expect(results?.results).toMatchObject([
      { query: "q1", should_trigger: true, runs: 1, triggers: 1, errors: 0, trigger_rate: 1, pass: true },
      { query: "q2", should_trigger: false, runs: 2, triggers: 1, errors: 1, stolen_by: { other: 1 } },
    ]);
    expect(await shardTriggerResults(shard, undefined)).toBeUndefined();
    expect(await shardTriggerResults({ ...shard, triggerPlan: undefined } as never, like)).toBeUndefined();
    const own = { ...shard, triggerResults: like };
    expect(await shardTriggerResults(own, undefined)).toBe(like);
  });
});

describe("refusals of a folder that is no shard", () => {
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e as SkillgymError,
    );
  const hint = "merge takes the folders of runs made with --shard i/n";

  it("names the folder and says what to do", async () => {
    const none = await refusal(shardIterationDir(join(dir, "none")));
    expect(none).toMatchObject({ code: "BAD_INPUT", file: join(dir, "none") });
    await mkdir(join(dir, "empty"));
    expect(await refusal(shardIterationDir(join(dir, "empty")))).toMatchObject({
      message: `${join(dir, "empty")} holds no iteration (no iteration.json, no iteration-<N>/)`,
      file: join(dir, "empty"),
      hint: "name the workspace a `--shard i/n` run wrote, or its iteration folder",
    });
    await write(join(dir, "cat", "catalog-plan.json"), "{}");
    const catalog = await refusal(shardIterationDir(join(dir, "cat")));
    expect(catalog).toMatchObject({
      message: `${join(dir, "cat")} is a catalog folder; merge joins eval and trigger shards only`,
      file: join(dir, "cat"),
    });
    expect(catalog?.hint).toMatch(/^join a catalog's shards by running `skillgym catalog <dir> --cache/);
    await write(join(dir, "a", "iteration.json"), { ...iteration("complete"), shard: undefined });
    expect(await refusal(readShard(join(dir, "a")))).toMatchObject({
      message: `${join(dir, "a")}: ${join(dir, "a", "iteration.json")} has no shard; it is not a shard`,
      hint,
    });
    await write(join(dir, "b", "triggers", "plan.json"), { ...triggerPlan("complete"), shard: undefined });
    expect(await refusal(readShard(join(dir, "b")))).toMatchObject({
      message: `${join(dir, "b")}: ${join(dir, "b", "triggers", "plan.json")} has no shard; it is not a shard`,
      hint,
    });
    await mkdir(join(dir, "c", "triggers"), { recursive: true });
    expect(await refusal(readShard(join(dir, "c")))).toMatchObject({
      message: `${join(dir, "c")}: ${join(dir, "c")} has neither iteration.json nor triggers/plan.json`,
    });
    await write(join(dir, "d", "triggers", "plan.json"), "{not json");
    expect(await refusal(readShard(join(dir, "d")))).toMatchObject({
      code: "BAD_INPUT",
      file: join(dir, "d", "triggers", "plan.json"),
    });
    await write(join(dir, "e", "iteration.json"), iteration("complete"));
    await write(join(dir, "e", "triggers", "trigger-results.json"), "[]");
    expect(await refusal(readShard(join(dir, "e")))).toMatchObject({
      file: join(dir, "e", "triggers", "trigger-results.json"),
    });
  });
});

describe("readAnyShard", () => {
  const root = (status: string) => ({
    skill_name: "s",
    skill_path: "/s",
    skill_hash: "h",
    status,
    started_at: "2026-01-01T00:00:00Z",
    agents: ["claude-code", "codex"],
    request: { evals: [1], runs_per_configuration: 2, baseline: "none", trigger_queries: 0, trigger_runs: 1 },
  });

  it("reads one agent's shard as one, and a shard of several agents as its root and each agent's part", async () => {
    await write(join(dir, "one", "iteration-1", "iteration.json"), iteration("complete"));
    const one = await readAnyShard(join(dir, "one"));
    expect(one.kind).toBe("one");
    expect(one.shard.dir).toBe(join(dir, "one", "iteration-1"));
    const it1 = join(dir, "two", "iteration-1");
    await write(join(it1, "iteration.json"), root("complete"));
    for (const agent of ["claude-code", "codex"])
      await write(join(it1, agent, "iteration.json"), iteration("complete", { agent: { name: agent } }));
    const two = await readAnyShard(join(dir, "two"));
    expect(two.kind).toBe("agents");
    if (two.kind !== "agents") return;
    expect(two.shard).toMatchObject({ source: join(dir, "two"), dir: it1 });
    expect(two.shard.record.agents).toEqual(["claude-code", "codex"]);
    expect(two.shard.parts.map((p) => [p.dir, p.iteration?.agent?.name])).toEqual([
      [join(it1, "claude-code"), "claude-code"],
      [join(it1, "codex"), "codex"],
    ]);
    expect(two.shard).not.toHaveProperty("matrix");
  });

  it("refuses a shard of several agents that never reached one, naming it, and says to run the shard again", async () => {
    const it1 = join(dir, "cut", "iteration-1");
    await write(join(it1, "iteration.json"), root("interrupted"));
    await write(join(it1, "claude-code", "iteration.json"), iteration("interrupted"));
    const refused = await readAnyShard(join(dir, "cut")).then(
      () => undefined,
      (e: unknown) => e as SkillgymError,
    );
    expect(refused).toMatchObject({
      code: "BAD_INPUT",
      message: `${join(dir, "cut")}: codex never ran in this shard (no ${join(it1, "codex")}; its iteration.json status is interrupted)`,
      hint: "run the shard again with its own command: it resumes and runs the agents it did not reach",
    });
  });
});

describe("catalog folders and workspaces", () => {
  it("tells catalog-<N> folders from names that only look like one, and iteration-<N> folders likewise", async () => {
    await mkdir(join(dir, "cat", "catalog-12"), { recursive: true });
    await mkdir(join(dir, "cat", "old-iteration-1"), { recursive: true });
    await mkdir(join(dir, "cat", "iteration-1x"), { recursive: true });
    await expect(shardIterationDir(join(dir, "cat"))).rejects.toThrow("is a catalog folder");
    await mkdir(join(dir, "ws", "old-catalog-1"), { recursive: true });
    await mkdir(join(dir, "ws", "catalog-3x"), { recursive: true });
    await expect(shardIterationDir(join(dir, "ws"))).rejects.toThrow("holds no iteration");
    await mkdir(join(dir, "both", "catalog-1"), { recursive: true });
    await write(join(dir, "both", "iteration-12", "iteration.json"), "{}");
    expect(await shardIterationDir(join(dir, "both"))).toBe(join(dir, "both", "iteration-12"));
  });
});

describe("shardTriggerResults past 9 queries", () => {
  it("puts the runs of query-10 and later under their own query", async () => {
    const t = join(dir, "ten");
    const queries = Array.from({ length: 11 }, (_, i) => `q${i + 1}`);
    await write(join(t, "triggers", "plan.json"), triggerPlan("interrupted", { queries }));
    await write(join(t, "triggers", "query-11", "run-1", "trigger.json"), trigger("success", true));
    await write(join(t, "triggers", "query-1", "run-1", "trigger.json"), trigger("success", false));
    const like = {
      skill_name: "s",
      description: "d",
      results: queries.map((query) => ({
        query,
        should_trigger: true,
        trigger_rate: null,
        triggers: 0,
        runs: 0,
        errors: 0,
        pass: null,
      })),
      summary: {
        total: 11,
        passed: 0,
        failed: 0,
        errors: 11,
        precision: null,
        recall: null,
        f1: null,
        accuracy: null,
      },
    } as never;
    const results = await shardTriggerResults(await readShard(t), like);
    expect(results?.results.map((r) => [r.runs, r.triggers])).toEqual([
      [1, 0],
      ...Array.from({ length: 9 }, () => [0, 0]),
      [1, 1],
    ]);
  });
});
