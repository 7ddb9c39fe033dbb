import { describe, expect, it } from "vitest";
import { shardShare } from "../../src/pipeline/shard-share.js";
import { loadInputs } from "../../src/run/load-inputs.js";

describe("shardShare", () => {
  it("deals the plan's runs and judge calls among n shards, each within one run of the others", async () => {
    const { suite } = await loadInputs({ skillPath: "examples/release-notes", need: "any" });
    const plan = { suite, baseline: "without_skill", runs: 3, triggerRuns: 2, grade: true };
    const whole = shardShare({ ...plan, shard: { index: 1, count: 1 } });
    expect(whole.agentRuns).toBe(suite.evals.length * 2 * 3);
    expect(whole.triggerRuns).toBe(suite.triggers.length * 2);
    const judged = suite.evals.filter((e) => e.expectations.length > 0).length * 2 * 3;
    expect(whole.judgeCalls).toBe(judged);
    const shares = [1, 2, 3].map((index) => shardShare({ ...plan, shard: { index, count: 3 } }));
    for (const key of ["agentRuns", "triggerRuns", "judgeCalls"] as const)
      expect(shares.reduce((n, s) => n + s[key], 0)).toBe(whole[key]);
    for (const key of ["agentRuns", "triggerRuns"] as const) {
      const counts = shares.map((s) => s[key]);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
    expect(shardShare({ ...plan, grade: false, shard: { index: 1, count: 3 } }).judgeCalls).toBe(0);
  });
});
