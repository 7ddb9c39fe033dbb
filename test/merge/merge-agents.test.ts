import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBenchmark } from "../../src/bench/index.js";
import type { Benchmark } from "../../src/contracts/benchmark.js";
import { mergeShards } from "../../src/merge/index.js";
import { tempDir } from "../e2e/helpers.js";
import {
  EVAL_RUNS,
  inFirst,
  scored,
  shardInfo,
  TRIGGER_RUNS,
  triggerInFirst,
  writeRun,
} from "./shard-fixture.js";

// mergeShards in process on shards of `run --agent a,b --shard i/2`: the root names the agents, each agent's part
// is an ordinary shard in its own folder, and the shard's matrix.json says what each agent cost on that machine.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8"));
const figures = (b: Benchmark) => ({ ...b, metadata: { ...b.metadata, timestamp: "" } });

const row = (dir: string, cost_usd: number, wall_seconds: number) => ({
  agent: dir,
  dir,
  status: "complete",
  with_skill_pass_rate: null,
  baseline_configuration: null,
  baseline_pass_rate: null,
  delta_pass_rate: null,
  graded_runs: 0,
  errored_runs: 0,
  triggers: null,
  cost_usd,
  wall_seconds,
});

interface Lane {
  dir: string;
  agent: string;
  version: string;
  model?: string;
  /** This lane's part ran trigger queries too. */
  triggers: boolean;
  /** `false`: this lane's part ran trigger queries only (no iteration.json, no eval runs). */
  evals?: false;
}

const LANES: Lane[] = [
  { dir: "claude-code", agent: "claude-code", version: "2.1.0", triggers: true },
  { dir: "codex", agent: "codex", version: "0.9.0", triggers: false },
];

async function agentsShard(
  at: string,
  index: number,
  opts: { lanes?: Lane[]; root?: Record<string, unknown>; costs?: number[]; walls?: number[] } = {},
): Promise<string> {
  const lanes = opts.lanes ?? LANES;
  const iteration = join(at, "iteration-1");
  const first = index === 1;
  for (const lane of lanes)
    await writeRun({
      dir: join(iteration, lane.dir),
      record:
        lane.evals === false
          ? null
          : {
              ...shardInfo(index, 2, `p-${lane.dir}`),
              agent: { name: lane.agent, version: lane.version },
              ...(lane.model ? { model: lane.model } : {}),
            },
      evalRuns: EVAL_RUNS.filter((r) => inFirst(r) === first),
      ...(lane.triggers
        ? {
            plan: shardInfo(index, 2, `t-${lane.dir}`),
            triggerRuns: TRIGGER_RUNS.filter((r) => triggerInFirst(r) === first),
          }
        : { plan: null }),
    });
  await writeFile(
    join(iteration, "iteration.json"),
    JSON.stringify({
      skill_name: "demo",
      skill_path: "/skills/demo",
      skill_hash: "abc123",
      status: "complete",
      started_at: `2026-01-15T10:0${index}:00Z`,
      agents: lanes.map((l) => l.dir),
      ...(lanes.some((l) => l.model)
        ? {
            lanes: lanes.map((l) => ({ dir: l.dir, agent: l.agent, ...(l.model ? { model: l.model } : {}) })),
          }
        : {}),
      request: {
        evals: [1, 2],
        runs_per_configuration: 2,
        baseline: "without_skill",
        trigger_queries: 3,
        trigger_runs: 2,
      },
      ...opts.root,
    }),
  );
  await writeFile(
    join(iteration, "matrix.json"),
    JSON.stringify({
      skill_name: "demo",
      timestamp: "2026-01-15T10:05:00Z",
      simulated: false,
      agents: lanes.map((l, i) =>
        row(l.dir, opts.costs?.[i] ?? 0.1 * index + i, opts.walls?.[i] ?? 10 * index + i),
      ),
    }),
  );
  return at;
}

describe("mergeShards of shards that ran two agents", () => {
  type Merged = Awaited<ReturnType<typeof mergeShards>>;
  let shards: string[];
  let plain: { agent: string; benchmark: Benchmark }[];
  beforeAll(async () => {
    plain = [];
    for (const lane of LANES) {
      const at = await writeRun({
        dir: join(dir, "plain", lane.dir),
        record: { agent: { name: lane.agent, version: lane.version } },
        evalRuns: EVAL_RUNS,
        ...(lane.triggers ? { triggerRuns: TRIGGER_RUNS } : { plan: null }),
      });
      plain.push({ agent: lane.dir, benchmark: (await writeBenchmark(at)).benchmark });
    }
    const one = await agentsShard(join(dir, "a1"), 1, { costs: [0.25, 0.5], walls: [30, 40] });
    const two = await agentsShard(join(dir, "a2"), 2, { costs: [0.125, 0.0625], walls: [50, 20] });
    shards = [two, one];
  });

  // writes each agent's merged iteration in its folder, with the plain run's benchmark and trigger results
  const agentFolders = async (result: Merged) => {
    expect(result.iterationDir).toBe(join(dir, "agents-merged", "iteration-1"));
    expect(result.agents?.map((a) => [a.agent, a.dir])).toEqual([
      ["claude-code", join(result.iterationDir, "claude-code")],
      ["codex", join(result.iterationDir, "codex")],
    ]);
    for (const [i, a] of (result.agents ?? []).entries()) {
      expect(figures(a.merged.benchmark as Benchmark)).toEqual(
        figures((plain[i] as (typeof plain)[number]).benchmark),
      );
      expect(a.merged.complete).toBe(true);
      const record = await readJson(join(a.dir, "iteration.json"));
      expect(record).toMatchObject({
        status: "complete",
        merged_from: { count: 2, shards: [1, 2], missing: [] },
      });
      expect(record.merged_from.plan_hash).toBe(`p-${a.agent}`);
    }
    expect(result.agents?.[0]?.merged.triggers?.results).toEqual(scored(TRIGGER_RUNS).results);
    expect(result.agents?.[1]?.merged.triggers).toBeUndefined();
    expect(result.evalRuns).toBe(16);
    expect(result.triggerRuns).toBe(6);
    expect(result.partial).toBeUndefined();
    expect(result.run).toBeUndefined();
  };

  // writes the matrix of the agents: each one's version, status, figures, cost added up and slowest time
  const matrixOfAgents = async (result: Merged) => {
    const matrix = result.matrix;
    expect(matrix?.skill_name).toBe("demo");
    expect(matrix?.simulated).toBe(false);
    expect(result.simulated).toBe(false);
    expect(
      matrix?.agents.map((r) => [r.agent, r.version, r.dir, r.status, r.cost_usd, r.wall_seconds]),
    ).toEqual([
      ["claude-code", "2.1.0", "claude-code", "complete", 0.375, 50],
      ["codex", "0.9.0", "codex", "complete", 0.5625, 40],
    ]);
    expect(matrix?.agents[0]).not.toHaveProperty("model");
    expect(matrix?.agents[0]?.with_skill_pass_rate).toBe(
      plain[0]?.benchmark.run_summary.with_skill?.pass_rate.mean,
    );
    expect(matrix?.agents[0]?.triggers).toMatchObject({
      passed: scored(TRIGGER_RUNS).summary.passed,
      total: 3,
    });
    expect(matrix?.agents[1]?.triggers).toBeNull();
    expect(await readJson(join(result.iterationDir, "matrix.json"))).toEqual(matrix);
    expect(await readFile(join(result.iterationDir, "benchmark.md"), "utf8")).toContain("codex");
  };

  // writes the root record as an unsharded run over the agents writes it, and its report
  const rootRecord = async (result: Merged) => {
    const record = await readJson(join(result.iterationDir, "iteration.json"));
    expect(record).toMatchObject({
      skill_name: "demo",
      status: "complete",
      started_at: "2026-01-15T10:01:00Z",
      simulated: false,
      agents: ["claude-code", "codex"],
      merged_from: { plan_hash: "p-claude-code,p-codex", count: 2, shards: [1, 2], missing: [] },
    });
    expect(record.partial).toBeUndefined();
    expect(Date.parse(record.finished_at)).toBeGreaterThan(Date.parse("2026-01-15T10:02:00Z"));
    expect(result.mergedFrom).toEqual(record.merged_from);
    expect(result.reportFile.startsWith(result.iterationDir)).toBe(true);
    expect(await readFile(result.reportFile, "utf8")).toContain("skillgym report — demo");
  };

  // The merge runs in the test: one in beforeAll would count as no test's, and no mutant would be tried on it.
  it("writes each agent's merged iteration, the matrix of the agents and the root record an unsharded run would", async () => {
    const result = await mergeShards({ shardDirs: shards, into: join(dir, "agents-merged") });
    expect(result.skillName).toBe("demo");
    await agentFolders(result);
    await matrixOfAgents(result);
    await rootRecord(result);
  });
});

describe("mergeShards of two-agent shards short of the plan, or of models", () => {
  it("refuses a shard not given, naming it for every agent; --partial adds up what every agent lacks", async () => {
    const one = await agentsShard(join(dir, "b1"), 1);
    const into = join(dir, "b-merged");
    await expect(mergeShards({ shardDirs: [one], into })).rejects.toThrow(
      "the shards do not hold the whole plan:\n  claude-code: shard 2/2 missing: no folder given holds it (1 of 2 given)\n  codex: shard 2/2 missing",
    );
    const result = await mergeShards({ shardDirs: [one], into, partial: true });
    expect(result.partial).toEqual({
      count: 2,
      planned_runs: { eval: 16, trigger: 6 },
      missing_runs: { eval: 8, trigger: 3 },
      shards: [
        {
          index: 2,
          state: "missing",
          planned_runs: { eval: 4, trigger: 3 },
          missing_runs: { eval: 4, trigger: 3 },
          agent: "claude-code",
        },
        {
          index: 2,
          state: "missing",
          planned_runs: { eval: 4, trigger: 0 },
          missing_runs: { eval: 4, trigger: 0 },
          agent: "codex",
        },
      ],
    });
    const record = await readJson(join(result.iterationDir, "iteration.json"));
    expect(record.status).toBe("interrupted");
    expect(record.partial).toEqual(result.partial);
    expect(result.matrix?.agents.map((r) => r.status)).toEqual(["interrupted", "interrupted"]);
    expect(result.agents?.map((a) => a.merged.complete)).toEqual([false, false]);
    expect(result.evalRuns).toBe(8);
    expect(result.triggerRuns).toBe(3);
  });

  it("names each part's agent and model from the root's lanes, and a simulated shard makes the merge simulated", async () => {
    const lanes: Lane[] = [
      { dir: "opus", agent: "claude-code", version: "2.1.0", model: "claude-opus-4", triggers: false },
      { dir: "haiku", agent: "claude-code", version: "2.1.0", model: "claude-haiku-4", triggers: false },
    ];
    const one = await agentsShard(join(dir, "m1"), 1, { lanes, root: { simulated: true } });
    const two = await agentsShard(join(dir, "m2"), 2, { lanes });
    const result = await mergeShards({ shardDirs: [one, two], into: join(dir, "m-merged") });
    expect(result.matrix?.agents.map((r) => [r.agent, r.model, r.dir])).toEqual([
      ["claude-code", "claude-opus-4", "opus"],
      ["claude-code", "claude-haiku-4", "haiku"],
    ]);
    expect(result.matrix?.simulated).toBe(true);
    expect(result.simulated).toBe(true);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).simulated).toBe(true);
    expect(result.triggerRuns).toBe(0);
  });

  it("marks only the agent short of runs interrupted, and adds no cost for a shard without matrix.json", async () => {
    const one = await agentsShard(join(dir, "c1"), 1);
    const two = await agentsShard(join(dir, "c2"), 2);
    const codex = join(two, "iteration-1", "codex");
    await rm(join(codex, "eval-2", "without_skill", "run-1"), { recursive: true });
    await rm(join(two, "iteration-1", "matrix.json"));
    const into = join(dir, "c-merged");
    await expect(mergeShards({ shardDirs: [one, two], into })).rejects.toThrow(
      `the shards do not hold the whole plan:\n  codex: shard 2/2 (${codex}) is incomplete: 1 of 4 eval runs missing`,
    );
    const result = await mergeShards({ shardDirs: [one, two], into, partial: true });
    expect(result.matrix?.agents.map((r) => [r.agent, r.status, r.cost_usd, r.wall_seconds])).toEqual([
      ["claude-code", "complete", 0.1, 10],
      ["codex", "interrupted", 1.1, 11],
    ]);
    expect(result.partial?.shards).toEqual([
      {
        index: 2,
        source: codex,
        state: "incomplete",
        planned_runs: { eval: 4, trigger: 0 },
        missing_runs: { eval: 1, trigger: 0 },
        agent: "codex",
      },
    ]);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("interrupted");
    expect(result.evalRuns).toBe(15);
  });
});

describe("mergeShards of two-agent shards of trigger queries only", () => {
  it("calls each agent's whole part complete, though it has no iteration.json, and the merge complete", async () => {
    const lanes: Lane[] = [
      { dir: "claude-code", agent: "claude-code", version: "2.1.0", triggers: true, evals: false },
      { dir: "codex", agent: "codex", version: "0.9.0", triggers: true, evals: false },
    ];
    const one = await agentsShard(join(dir, "t1"), 1, { lanes });
    const two = await agentsShard(join(dir, "t2"), 2, { lanes });
    const result = await mergeShards({ shardDirs: [one, two], into: join(dir, "t-merged") });
    expect(result.agents?.map((a) => [a.agent, a.merged.complete, a.merged.record])).toEqual([
      ["claude-code", true, undefined],
      ["codex", true, undefined],
    ]);
    expect(result.matrix?.agents.map((r) => [r.agent, r.status])).toEqual([
      ["claude-code", "complete"],
      ["codex", "complete"],
    ]);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("complete");
    expect([result.evalRuns, result.triggerRuns]).toEqual([0, 12]);
  });
});

describe("mergeShards of two-agent shards where one lost its trigger results", () => {
  it("marks that agent interrupted, its evals whole and its runs re-scored, and the merge interrupted", async () => {
    const one = await agentsShard(join(dir, "l1"), 1);
    const two = await agentsShard(join(dir, "l2"), 2);
    await rm(join(two, "iteration-1", "claude-code", "triggers", "trigger-results.json"));
    const result = await mergeShards({ shardDirs: [one, two], into: join(dir, "l-merged") });
    expect(result.partial).toBeUndefined();
    const claude = result.agents?.[0];
    expect(claude?.merged.record?.status).toBe("complete");
    expect(claude?.merged.triggers?.results).toEqual(scored(TRIGGER_RUNS).results);
    expect(claude?.merged.complete).toBe(false);
    expect(result.matrix?.agents.map((r) => [r.agent, r.status])).toEqual([
      ["claude-code", "interrupted"],
      ["codex", "complete"],
    ]);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("interrupted");
  });
});

describe("mergeShards of a shard of two agents and one of another run", () => {
  it("refuses a shard of one agent beside one of two, and shards of other agents, naming the agents", async () => {
    const two = await agentsShard(join(dir, "x1"), 1);
    const one = await writeRun({
      dir: join(dir, "x2", "iteration-1"),
      record: { ...shardInfo(2, 2, "p-claude-code"), agent: { name: "claude-code" } },
      evalRuns: EVAL_RUNS.filter((r) => !inFirst(r)),
      plan: null,
    });
    const into = join(dir, "x-merged");
    await expect(mergeShards({ shardDirs: [one, two], into })).rejects.toThrow(
      "agents: claude-code, codex (a run of several) vs claude-code (a run of one)",
    );
    const other = await agentsShard(join(dir, "x3"), 2, {
      lanes: [LANES[0] as Lane, { dir: "gemini", agent: "gemini", version: "0.1.0", triggers: false }],
    });
    await expect(mergeShards({ shardDirs: [two, other], into })).rejects.toThrow(
      "agents: claude-code, codex vs claude-code, gemini",
    );
    await expect(readdir(into)).rejects.toThrow();
  });
});

describe("the fields of a merge of several agents", () => {
  it("has the agents, the matrix and no partial when whole; an agent's part has what it ran", async () => {
    const one = await agentsShard(join(dir, "k1"), 1);
    const two = await agentsShard(join(dir, "k2"), 2);
    const result = await mergeShards({ shardDirs: [one, two], into: join(dir, "k-merged") });
    expect(Object.keys(result).sort()).toEqual([
      "agents",
      "evalRuns",
      "iterationDir",
      "matrix",
      "mergedFrom",
      "reportFile",
      "simulated",
      "skillName",
      "triggerRuns",
    ]);
    expect(Object.keys(result.agents?.[1]?.merged ?? {}).sort()).toEqual([
      "benchmark",
      "complete",
      "evalRuns",
      "record",
      "reportFile",
      "triggerRuns",
    ]);
  });
});
