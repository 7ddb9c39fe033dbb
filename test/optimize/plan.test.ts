import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type OptimizeOptions,
  planOptimize,
  prepareOptimize,
  unitCostsFor,
} from "../../src/optimize/plan.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { scribeQueries } from "./scribe-queries.js";
import { scriptedImprover, wordAgent } from "./word-agent.js";

// What `optimize --dry-run` plans, on real files: the split, the most the loop could start, cost and take, and
// whether replay would screen the train runs. No agent runs.
let dir: string;
let cleanup: () => Promise<void>;
const skillDir = () => join(dir, "scribe");

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "scribe/SKILL.md": skillMd("scribe", "Tidies the layout of documents.", "Body."),
    "scribe/evals/triggers.json": JSON.stringify(scribeQueries),
    "empty/SKILL.md": skillMd("empty", "Does nothing.", "Body."),
    "empty/evals/triggers.json": "[]",
  });
});
afterEach(async () => {
  await cleanup();
});

let agentsMade = 0;
function options(overrides: Partial<OptimizeOptions> = {}): OptimizeOptions {
  agentsMade = 0;
  return {
    skillPath: skillDir(),
    workspace: join(dir, "ws"),
    maxIterations: 2,
    holdout: 0.4,
    runs: 1,
    threshold: 0.5,
    seed: 42,
    concurrency: 4,
    timeoutSeconds: 60,
    createAgent: async () => {
      agentsMade++;
      return wordAgent().agent;
    },
    createImprover: async () => scriptedImprover([]).judge,
    ...overrides,
  };
}

const byQuery = (qs: readonly { query: string }[]) => qs.map((q) => q.query).sort();

describe("planOptimize", () => {
  it("plans the split, the runs, and the time of a simulated optimization; an agent without replay screens nothing", async () => {
    const plan = await planOptimize(options(), true);
    expect(plan.train).toHaveLength(5);
    expect(plan.test).toHaveLength(4);
    expect(byQuery([...plan.train, ...plan.test])).toEqual(byQuery(scribeQueries));
    expect(plan).toEqual({
      skill: "scribe",
      screenOff: "word has no replay yet",
      train: plan.train,
      test: plan.test,
      estimate: {
        evaluations: 3,
        queries: 9,
        runs: 1,
        triggerRuns: 27,
        improverCalls: 2,
        costUsd: 0,
        unit: { triggerRunUsd: 0, improverCallUsd: 0, source: "simulated: skillgym sim costs nothing" },
      },
      // Three evaluations of three waves of 3 s, and two improver calls of 0.5 s.
      wallSeconds: 28,
      unitSeconds: { agentRun: 4, judgeCall: 0.5, triggerRun: 3, measured: false },
      concurrency: 4,
    });
  });

  it("prices a real optimization at the default unit costs and times", async () => {
    const plan = await planOptimize(options({ concurrency: 2 }), false);
    expect(plan.estimate.unit).toEqual({
      triggerRunUsd: 0.05,
      improverCallUsd: 0.05,
      source: "rough defaults (no earlier real optimization in this workspace)",
    });
    expect(plan.estimate.costUsd).toBeCloseTo(27 * 0.05 + 2 * 0.05, 10);
    // Three evaluations of five waves of 30 s, and two improver calls of 20 s.
    expect(plan.wallSeconds).toBe(3 * 5 * 30 + 2 * 20);
    expect(plan.concurrency).toBe(2);
  });

  it("times each evaluation by all its runs: every query `runs` times", async () => {
    const plan = await planOptimize(options({ concurrency: 2, runs: 3 }), false);
    // Three evaluations of 27 runs, two at a time: 14 waves of 30 s; two improver calls of 20 s.
    expect(plan.wallSeconds).toBe(3 * 14 * 30 + 2 * 20);
  });

  it("forecasts replay on the train runs of an agent that has it", async () => {
    const plan = await planOptimize(
      options({ createAgent: async () => wordAgent({ name: "claude-code" }).agent }),
      true,
    );
    // 3 evaluations × 5 train queries × 1 run screened; one capture per evaluation.
    expect(plan.screen).toEqual({
      kind: "replay",
      capture_runs: 3,
      replay_requests: 15,
      agent_runs_up_to: 27,
    });
    expect(plan).not.toHaveProperty("screenOff");
    expect(plan).not.toHaveProperty("screenTestFirstRuns");
  });

  it("forecasts replay on each test query's first run too with three runs or more", async () => {
    const plan = await planOptimize(
      options({ runs: 3, createAgent: async () => wordAgent({ name: "claude-code" }).agent }),
      true,
    );
    // 3 evaluations × (5 train queries × 3 runs + 4 first test runs).
    expect(plan.screen).toEqual({
      kind: "replay",
      capture_runs: 3,
      replay_requests: 57,
      agent_runs_up_to: 81,
    });
    expect(plan.screenTestFirstRuns).toBe(true);
  });

  it("screens nothing with --screen none, without making the agent", async () => {
    const plan = await planOptimize(options({ screen: { mode: "none" } }), true);
    expect(plan.screenOff).toBe("--screen none");
    expect(plan).not.toHaveProperty("screen");
    expect(agentsMade).toBe(0);
  });

  it("says replay is off when the agent cannot be had", async () => {
    const plan = await planOptimize(
      options({
        createAgent: async () => {
          throw new Error("not logged in");
        },
      }),
      true,
    );
    expect(plan.screenOff).toBe("the agent could not be had");
    expect(plan).not.toHaveProperty("screen");
  });
});

describe("prepareOptimize", () => {
  it.each([-1, 1.5])("refuses --max-iterations %s", async (maxIterations) => {
    await expect(prepareOptimize(options({ maxIterations }))).rejects.toMatchObject({
      code: "USAGE",
      message: `--max-iterations must be a whole number of 0 or more (got ${maxIterations})`,
    });
  });

  it("takes --max-iterations 0", async () => {
    const prepared = await prepareOptimize(options({ maxIterations: 0 }));
    expect(prepared.skill.name).toBe("scribe");
    expect(prepared.workspace).toBe(join(dir, "ws"));
    expect(prepared.conditions).toEqual({});
  });

  it("refuses a suite without trigger queries", async () => {
    await expect(prepareOptimize(options({ skillPath: join(dir, "empty") }))).rejects.toMatchObject({
      code: "NO_EVALS",
      message: `${join(dir, "empty", "evals", "triggers.json")} has no queries`,
      hint: 'add [{ "query": "…", "should_trigger": true }, …] with queries that should and should not load the skill',
    });
  });

  it("puts the workspace beside the skill by default", async () => {
    const { workspace: _workspace, ...rest } = options();
    const prepared = await prepareOptimize(rest);
    expect(prepared.workspace).toBe(join(dir, "scribe-workspace"));
  });
});

describe("unitCostsFor", () => {
  it("charges only the side that is not simulated", async () => {
    const defaults = "rough defaults (no earlier real optimization in this workspace)";
    expect(await unitCostsFor(join(dir, "ws"), { agent: true, improver: false })).toEqual({
      triggerRunUsd: 0,
      improverCallUsd: 0.05,
      source: defaults,
    });
    expect(await unitCostsFor(join(dir, "ws"), { agent: false, improver: true })).toEqual({
      triggerRunUsd: 0.05,
      improverCallUsd: 0,
      source: defaults,
    });
  });
});
