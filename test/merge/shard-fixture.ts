import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { scoreQuery, summarize, type TriggerRunResult } from "../../src/triggers/score.js";
import { type FixtureRun, grading, iterationRecord, writeIteration } from "../bench/iteration-fixture.js";

// One plan (2 evals × 2 configurations × 2 runs, 3 trigger queries × 2 runs) written as a plain iteration and as
// shards of it, so a merge of the shards can be compared with the plain run's files.

export const EVALS = [
  { id: 1, name: "summarise", assertions: ["has a table", "cites a source"] },
  { id: 2, name: "chart", assertions: ["draws a chart"] },
];

const PLAN = { evals: [1, 2], configurations: ["with_skill", "without_skill"], runs_per_configuration: 2 };

export const REUSED = {
  iteration: "iteration-3",
  run: "eval-2/with_skill/run-2",
  workspace: "/w",
  cost_usd: 0.05,
};

const timing = (seconds: number, tokens: number, more: Record<string, unknown> = {}) => ({
  total_tokens: tokens,
  duration_ms: seconds * 1000,
  total_duration_seconds: seconds,
  executor_duration_seconds: seconds,
  outcome: "success",
  attempts: 1,
  ...more,
});

/** The 8 eval runs of the plan, each with something of its own to carry through a merge. */
export const EVAL_RUNS: FixtureRun[] = [
  {
    eval: 1,
    configuration: "with_skill",
    run: 1,
    grading: { ...grading({ "has a table": true, "cites a source": true }), judge_cost_usd: 0.001 },
    timing: timing(12, 1200, { cost_usd: 0.02 }),
  },
  {
    eval: 1,
    configuration: "with_skill",
    run: 2,
    results: { "has a table": true, "cites a source": false },
    timing: timing(14, 1400, { cost_usd: 0.03, attempts: 2 }),
  },
  {
    eval: 1,
    configuration: "without_skill",
    run: 1,
    results: { "has a table": false, "cites a source": false },
    timing: timing(9, 900, { cost_usd: 0.01 }),
  },
  {
    eval: 1,
    configuration: "without_skill",
    run: 2,
    grading: null,
    timing: timing(3, 100, { cost_usd: 0.002, outcome: "agent_error", error: "the agent crashed" }),
  },
  {
    eval: 2,
    configuration: "with_skill",
    run: 1,
    results: { "draws a chart": true },
    timing: timing(20, 2000, { cost_usd: 0.04 }),
  },
  {
    eval: 2,
    configuration: "with_skill",
    run: 2,
    results: { "draws a chart": true },
    timing: timing(21, 2100, { cost_usd: 0, reused_from: REUSED }),
  },
  {
    eval: 2,
    configuration: "without_skill",
    run: 1,
    results: { "draws a chart": false },
    timing: timing(8, 800, { cost_usd: 0.01, contaminated: true }),
  },
  {
    eval: 2,
    configuration: "without_skill",
    run: 2,
    results: { "draws a chart": true },
    timing: timing(7, 700),
  },
];

export const QUERIES = [
  { query: "summarise this csv", should_trigger: true },
  { query: "what is the weather", should_trigger: false },
  { query: "chart these numbers", should_trigger: true },
];

export interface TriggerFixtureRun {
  query: number;
  run: number;
  triggered: boolean;
  stolen_by?: string[];
  outcome?: string;
  error?: string;
  cost_usd?: number;
  reused_from?: typeof REUSED;
}

/** The 6 trigger runs of the plan. */
export const TRIGGER_RUNS: TriggerFixtureRun[] = [
  { query: 1, run: 1, triggered: true, cost_usd: 0.003 },
  { query: 1, run: 2, triggered: true, cost_usd: 0.004 },
  { query: 2, run: 1, triggered: false, cost_usd: 0.001 },
  { query: 2, run: 2, triggered: false, stolen_by: ["other-skill"], cost_usd: 0.002 },
  { query: 3, run: 1, triggered: false, outcome: "timeout", error: "timed out" },
  { query: 3, run: 2, triggered: true, cost_usd: 0.005, reused_from: { ...REUSED, cost_usd: 0.006 } },
];

export const triggerRecord = (r: TriggerFixtureRun) => {
  const q = QUERIES[r.query - 1] as (typeof QUERIES)[number];
  return {
    query: q.query,
    should_trigger: q.should_trigger,
    synthetic_name: "skill-x1",
    triggered: r.triggered,
    skills_loaded: r.triggered ? ["csv-summary"] : [],
    stolen_by: r.stolen_by ?? [],
    outcome: r.outcome ?? "success",
    ...(r.error ? { error: r.error } : {}),
    attempts: 1,
    duration_ms: 1000 * r.query + r.run,
    ...(r.cost_usd !== undefined ? { cost_usd: r.cost_usd } : {}),
    ...(r.reused_from ? { reused_from: r.reused_from } : {}),
  };
};

/** What the runs score to, as a trigger eval writes trigger-results.json. */
export function scored(
  runs: readonly TriggerFixtureRun[],
  more: Record<string, unknown> = {},
): TriggerResults {
  const found: TriggerRunResult[] = runs
    .filter((r) => r.outcome !== "cancelled")
    .map((r) => ({
      queryIndex: r.query - 1,
      triggered: r.triggered,
      stolenBy: r.stolen_by ?? [],
      ...(r.error ? { error: r.error } : {}),
    }));
  const results = QUERIES.map((q, i) =>
    scoreQuery(
      q,
      found.filter((r) => r.queryIndex === i),
      0.5,
    ),
  );
  return {
    skill_name: "demo",
    description: "Summarises CSV files",
    threshold: 0.5,
    runs_per_query: 2,
    all_runs: true,
    results,
    summary: summarize(results),
    ...more,
  } as TriggerResults;
}

export const triggerPlan = (more: Record<string, unknown> = {}) => ({
  skill_name: "demo",
  skill_hash: "abc123",
  description: "Summarises CSV files",
  queries: QUERIES.map((q) => q.query),
  runs_per_query: 2,
  with_skills: [],
  all_runs: true,
  status: "complete",
  ...more,
});

const json = async (file: string, value: unknown) => {
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
};

export interface FixtureShard {
  /** The iteration folder to write. */
  dir: string;
  /** iteration.json (merged over the plain record); `null` writes none, and no eval runs. */
  record?: Record<string, unknown> | null;
  evalRuns?: readonly FixtureRun[];
  /** triggers/plan.json (merged over the plain plan); `null` writes no triggers folder. */
  plan?: Record<string, unknown> | null;
  triggerRuns?: readonly TriggerFixtureRun[];
  /** trigger-results.json: scored from the runs unless `null` (none written) or given. */
  results?: TriggerResults | null;
}

/** Writes an iteration folder (a plain run's, or a shard's with `shard` in its records) as `skillgym run` would. */
export async function writeRun(s: FixtureShard): Promise<string> {
  if (s.record !== null)
    await writeIteration(s.dir, {
      record: iterationRecord({
        skill_name: "demo",
        plan: PLAN,
        agent: { name: "claude-code" },
        ...s.record,
      }),
      evals: EVALS,
      runs: [...(s.evalRuns ?? [])],
    });
  if (s.plan !== null) {
    const runs = s.triggerRuns ?? [];
    await json(join(s.dir, "triggers", "plan.json"), triggerPlan(s.plan ?? {}));
    for (const r of runs)
      await json(
        join(s.dir, "triggers", `query-${r.query}`, `run-${r.run}`, "trigger.json"),
        triggerRecord(r),
      );
    const results = s.results === undefined ? scored(runs) : s.results;
    if (results) await json(join(s.dir, "triggers", "trigger-results.json"), results);
  }
  return s.dir;
}

export const shardInfo = (index: number, count = 2, plan_hash = "p1") => ({
  shard: { index, count, plan_hash },
});

/** Shard 1 of 2 takes these runs, shard 2 the others (any split of the runs is one plan's). */
export const inFirst = (r: FixtureRun) => r.run === (r.eval === 1 ? 1 : 2);
export const triggerInFirst = (r: TriggerFixtureRun) => (r.query + r.run) % 2 === 0;
