import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { evalCounts, evalSummaryText } from "../../src/cli/reporters/eval-summary.js";
import { IterationRecord } from "../../src/contracts/run-record.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { fastRetry, readJson, runWithSim, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd("greeter", "Writes a greeting card file.", "Write card.txt."),
    "greeter/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "Please make a greeting card for Ada", expectations: [] }],
    }),
  });
});
afterEach(() => cleanup());

describe("concurrency under a scripted burst of 429s (the Claude Code test double against the sim)", () => {
  it("falls while the service refuses, recovers after, and iteration.json says how often", async () => {
    // The first four agent sessions are refused with 429; every later one (retries included) is served.
    const burst = SimScript.parse({
      rules: [
        {
          match: "greeting",
          fault: { status: 429, sessions: 4 },
          steps: [{ write: { path: "card.txt", content: "hi" } }],
        },
      ],
    });
    let running = 0;
    const atStart: number[] = [];
    const { summary, sim } = await runWithSim(burst, {
      skillPath: join(dir, "greeter"),
      runs: 14,
      baseline: "none",
      concurrency: 4,
      timeoutSeconds: 60,
      retry: { ...fastRetry, baseDelayMs: 300, maxDelayMs: 300 },
      reporter: {
        onRunStart: () => {
          running++;
          atStart.push(running);
        },
        onRunEnd: () => {
          running--;
        },
      },
    });
    expect(sim.log.filter((e) => e.action === "fault 429")).toHaveLength(4);
    expect(summary.records.every((r) => r.outcome === "success")).toBe(true);
    // Four start at once and meet the burst; later starts find fewer running, then the limit climbs back.
    // (How far it falls before the next start depends on when the 429s land: a loaded machine shifts them.)
    expect(atStart.slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(Math.min(...atStart.slice(4))).toBeLessThan(4);
    expect(Math.max(...atStart.slice(-4))).toBe(4);
    const record = IterationRecord.parse(await readJson(join(summary.iterationDir, "iteration.json")));
    expect(record.rate_limits).toMatchObject({ events: 4, final_concurrency: 4, max_concurrency: 4 });
    expect(record.rate_limits?.reductions).toBeGreaterThanOrEqual(2);
    expect(record.rate_limits?.lowest_concurrency).toBeLessThanOrEqual(2);
    // The terminal summary says so: how many 429s, how often and how low the concurrency fell.
    const limits = record.rate_limits!;
    expect(summary.rateLimits).toEqual(limits);
    expect(evalSummaryText(summary, evalCounts(summary.records), undefined)).toContain(
      `rate limited (eval runs): 4 429 answers; concurrency lowered ${limits.reductions} times, down to ${limits.lowest_concurrency} of 4, ended at 4`,
    );
  }, 120_000);
});
