import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unitSecondsFromHistory } from "../../src/pipeline/duration-history.js";
import { defaultUnitSeconds, simulatedUnitSeconds } from "../../src/pipeline/estimate.js";
import { iterationRecord } from "../bench/iteration-fixture.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { timedIteration } from "./timed-iteration.js";

let dir: string;
let ws: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  ws = join(dir, "ws");
});
afterEach(() => cleanup());

type Seconds = { executor?: number; grader?: number };

// An iteration of eval 1 run twice with and without the skill; `runs` are the four runs' timing.json seconds, in the
// order with_skill/run-1, without_skill/run-1, with_skill/run-2, without_skill/run-2.
const evalIteration = (n: number, simulated: boolean, runs: Seconds[]) =>
  timedIteration(
    dir,
    n,
    simulated,
    runs.map((s) => ({
      ...(s.executor !== undefined ? { executor_duration_seconds: s.executor } : {}),
      ...(s.grader !== undefined ? { grader_duration_seconds: s.grader } : {}),
    })),
  );

function triggerRun(durationMs: number, simulated: boolean | undefined): string {
  return JSON.stringify({
    query: "q",
    should_trigger: true,
    synthetic_name: "demo-x",
    triggered: true,
    skills_loaded: [],
    stolen_by: [],
    outcome: "success",
    attempts: 1,
    duration_ms: durationMs,
    ...(simulated !== undefined ? { simulated } : {}),
  });
}

// Trigger runs of an iteration with no iteration.json: `queries[q][r]` is the duration of run r+1 of query q+1.
async function triggerIteration(
  n: number,
  simulated: boolean | undefined,
  queries: number[][],
): Promise<void> {
  const tree: Record<string, string> = {};
  queries.forEach((runs, q) => {
    runs.forEach((ms, r) => {
      tree[`ws/iteration-${n}/triggers/query-${q + 1}/run-${r + 1}/trigger.json`] = triggerRun(ms, simulated);
    });
  });
  await writeTree(dir, tree);
}

describe("seconds per unit from earlier iterations", () => {
  it("falls back to the defaults of the kind asked for, unmeasured, without any history", async () => {
    expect(await unitSecondsFromHistory(ws, false)).toEqual({ ...defaultUnitSeconds, measured: false });
    expect(await unitSecondsFromHistory(ws, true)).toEqual({ ...simulatedUnitSeconds, measured: false });
  });

  it("takes the mean agent and judge seconds of every planned run, leaving out runs that measured nothing", async () => {
    await evalIteration(1, false, [
      { executor: 10, grader: 2 },
      { executor: 20, grader: 0 },
      { executor: 0, grader: 4 },
      { executor: 60 },
    ]);
    expect(await unitSecondsFromHistory(ws, false)).toEqual({
      agentRun: 30,
      judgeCall: 3,
      triggerRun: defaultUnitSeconds.triggerRun,
      measured: true,
    });
  });

  it("keeps the defaults of an iteration whose runs wrote no timing", async () => {
    await writeTree(dir, {
      "ws/iteration-1/iteration.json": JSON.stringify(iterationRecord({ simulated: false })),
      "ws/iteration-1/eval-1/with_skill/run-1/timing.json": "{ not json",
    });
    expect(await unitSecondsFromHistory(ws, false)).toEqual({ ...defaultUnitSeconds, measured: false });
  });

  it("reads the latest iteration of the same kind only, not an earlier one nor one of the other kind", async () => {
    await evalIteration(1, false, [{ executor: 100, grader: 10 }]);
    await evalIteration(2, false, [{ executor: 40, grader: 6 }]);
    await evalIteration(3, true, [{ executor: 2, grader: 1 }]);
    expect(await unitSecondsFromHistory(ws, false)).toEqual({
      agentRun: 40,
      judgeCall: 6,
      triggerRun: defaultUnitSeconds.triggerRun,
      measured: true,
    });
    expect(await unitSecondsFromHistory(ws, true)).toEqual({
      agentRun: 2,
      judgeCall: 1,
      triggerRun: simulatedUnitSeconds.triggerRun,
      measured: true,
    });
  });

  it("takes the mean trigger run seconds over every query and run, leaving out runs that took no time", async () => {
    await triggerIteration(1, undefined, [
      [3000, 5000],
      [0, 7000],
    ]);
    // A stray file among the query folders is no query.
    await writeTree(dir, { "ws/iteration-1/triggers/plan.json": "{}" });
    expect(await unitSecondsFromHistory(ws, false)).toEqual({
      agentRun: defaultUnitSeconds.agentRun,
      judgeCall: defaultUnitSeconds.judgeCall,
      triggerRun: 5,
      measured: true,
    });
  });

  it("tells simulated trigger runs from real ones by what the runs say, a run saying nothing being real", async () => {
    await triggerIteration(1, true, [[2000]]);
    await triggerIteration(2, undefined, [[40000]]);
    await triggerIteration(3, false, [[60000]]);
    expect((await unitSecondsFromHistory(ws, true)).triggerRun).toBe(2);
    expect((await unitSecondsFromHistory(ws, false)).triggerRun).toBe(60);
    await triggerIteration(3, true, [[60000]]);
    expect((await unitSecondsFromHistory(ws, false)).triggerRun).toBe(40);
  });

  it("takes agent and trigger seconds each from the latest iteration that measured it", async () => {
    await triggerIteration(1, false, [[9000]]);
    await evalIteration(2, false, [{ executor: 50, grader: 5 }]);
    await evalIteration(3, false, [{ executor: 70, grader: 7 }]);
    await triggerIteration(3, false, [[11000]]);
    await triggerIteration(4, false, [[13000]]);
    expect(await unitSecondsFromHistory(ws, false)).toEqual({
      agentRun: 70,
      judgeCall: 7,
      triggerRun: 13,
      measured: true,
    });
  });

  it("keeps looking for agent seconds past the latest trigger runs, and for trigger seconds past the latest agent runs", async () => {
    await evalIteration(1, false, [{ executor: 50, grader: 5 }]);
    await triggerIteration(2, false, [[9000]]);
    expect(await unitSecondsFromHistory(ws, false)).toEqual({
      agentRun: 50,
      judgeCall: 5,
      triggerRun: 9,
      measured: true,
    });
    await triggerIteration(1, false, [[4000]]);
    await evalIteration(2, false, [{ executor: 30, grader: 3 }]);
    await writeTree(dir, { "ws/iteration-2/triggers/query-1/run-1/trigger.json": "{}" });
    expect(await unitSecondsFromHistory(ws, false)).toEqual({
      agentRun: 30,
      judgeCall: 3,
      triggerRun: 4,
      measured: true,
    });
  });
});
