import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readHistoryPoints } from "../../src/report/history-points.js";
import { createJsonCache } from "../../src/runlog/record-cache.js";
import { tempDir, writeFiles } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  ws = await tempDir();
});
afterEach(() => ws.cleanup());

const row = (fields: Record<string, unknown>) => ({
  parent: null,
  expectation_pass_rate: 1,
  grading_result: "baseline",
  is_current_best: false,
  ...fields,
});

// A history.json written by hand: each row `run` wrote becomes a point, by its version, with exactly its values.
describe("readHistoryPoints", () => {
  it("reads each row of `run` as a point with its figures, and nulls what a row leaves out", async () => {
    await writeFiles(ws.dir, {
      "history.json": JSON.stringify({
        started_at: "2026-01-01T00:00:00Z",
        skill_name: "demo",
        current_best: "iteration-2/new",
        iterations: [
          row({ version: "v0" }),
          row({ version: "iteration-1", iteration: 1 }),
          row({
            version: "iteration-2/new",
            parent: "iteration-1",
            iteration: 2,
            delta: { estimate: 0.25, ci_low: -0.1, ci_high: 0.6, extra: 1 },
            verdict: "helps",
            redundant: true,
            effect_floor: 0,
            change: "regressed",
            regressed_evals: 0,
          }),
        ],
      }),
    });
    const points = await readHistoryPoints(createJsonCache(), ws.dir);
    expect([...points.keys()]).toEqual(["iteration-1", "iteration-2/new"]);
    expect(points.get("iteration-1")).toEqual({
      version: "iteration-1",
      parent: null,
      delta: null,
      verdict: null,
      redundant: false,
      effect_floor: null,
      change: null,
      regressed_evals: null,
    });
    expect(points.get("iteration-2/new")).toEqual({
      version: "iteration-2/new",
      parent: "iteration-1",
      delta: { estimate: 0.25, ci_low: -0.1, ci_high: 0.6 },
      verdict: "helps",
      redundant: true,
      effect_floor: 0,
      change: "regressed",
      regressed_evals: 0,
    });
  });

  it("is empty without a history.json", async () => {
    expect((await readHistoryPoints(createJsonCache(), ws.dir)).size).toBe(0);
  });
});
