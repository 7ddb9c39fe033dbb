import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createJudge } from "../../src/judge/create.js";
import { type OptimizeOptions, runOptimize } from "../../src/optimize/index.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { createDoubleAgent } from "../agent-double/index.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

const queries = [
  { query: "draft release notes from the recent commits", should_trigger: true },
  { query: "write release notes for version two", should_trigger: true },
  { query: "summarize the commits into release notes", should_trigger: true },
  { query: "fix the failing unit test in the parser", should_trigger: false },
  { query: "rename this variable across the codebase", should_trigger: false },
];

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "scribe/SKILL.md": skillMd("scribe", "Tidies the layout of documents.", "Write RELEASE_NOTES.md."),
    "scribe/evals/triggers.json": JSON.stringify(queries),
  });
  sim = await startSim();
});
afterEach(async () => {
  await sim.close();
  await cleanup();
});

function options(overrides: Partial<OptimizeOptions> = {}): OptimizeOptions {
  return {
    skillPath: join(dir, "scribe"),
    workspace: join(dir, "ws"),
    maxIterations: 2,
    holdout: 0.4,
    runs: 1,
    threshold: 0.5,
    seed: 42,
    concurrency: 5,
    timeoutSeconds: 60,
    retry: fastRetry,
    store: {},
    // What the store serves of the agent's runs; replayed runs are not stored (a replay is cheap to make again).
    screen: { mode: "none" },
    createAgent: () => createDoubleAgent({ simulatorUrl: sim.url }),
    createImprover: () => createJudge({ backend: "sim", simulatorUrl: sim.url }),
    ...overrides,
  };
}

// Agent sessions of trigger queries (the improver's requests are not counted).
const querySessions = (from: number) =>
  new Set(
    sim.log
      .slice(from)
      .flatMap((e) => (queries.some((q) => e.prompt.startsWith(q.query)) ? [e.session] : [])),
  ).size;

describe("optimize with the result store", () => {
  it("serves the verdicts of descriptions evaluated before; --fresh evaluates them again", async () => {
    const first = await runOptimize(options());
    expect(querySessions(0)).toBeGreaterThanOrEqual(queries.length);
    const before = sim.log.length;
    const second = await runOptimize(options());
    // The same descriptions (the original, then the same proposals): every verdict comes from the store.
    expect(querySessions(before)).toBe(0);
    expect(second.results.iterations.map((i) => i.trigger_runs)).toEqual(
      second.results.iterations.map(() => 0),
    );
    expect(second.results.iterations.map((i) => i.test_score ?? null)).toEqual(
      first.results.iterations.map((i) => i.test_score ?? null),
    );
    const again = sim.log.length;
    await runOptimize(options({ store: { fresh: true } }));
    expect(querySessions(again)).toBeGreaterThanOrEqual(queries.length);
  });
});
