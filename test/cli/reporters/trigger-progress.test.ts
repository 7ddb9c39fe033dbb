import { describe, expect, it } from "vitest";
import { captureIo } from "../../../src/cli/io.js";
import { triggerReporter } from "../../../src/cli/reporters/trigger-progress.js";
import type { TriggerRunRecord, TriggerRunSpec } from "../../../src/triggers/index.js";

const spec = (queryIndex: number, runNumber: number): TriggerRunSpec => ({
  queryIndex,
  query: `query ${queryIndex}`,
  shouldTrigger: true,
  runNumber,
  syntheticName: "haiku-sg-0",
  runDir: `/ws/iteration-1/triggers/query-${queryIndex + 1}/run-${runNumber}`,
});

const ended = (s: TriggerRunSpec): TriggerRunRecord => ({
  spec: s,
  queryIndex: s.queryIndex,
  triggered: true,
  stolenBy: [],
  outcome: "success",
  attempts: 1,
  durationMs: 10,
  skipped: false,
  record: {
    query: s.query,
    should_trigger: true,
    synthetic_name: s.syntheticName,
    triggered: true,
    skills_loaded: ["haiku"],
    stolen_by: [],
    outcome: "success",
    attempts: 1,
    duration_ms: 10,
    cost_usd: 0,
  },
});

const lines = (io: ReturnType<typeof captureIo>) => io.stderr().trimEnd().split("\n").slice(1);

describe("trigger progress", () => {
  it("shrinks the total when a settled query's runs are dropped before the run that settled it is listed", () => {
    const io = captureIo();
    const progress = triggerReporter(io);
    progress.onPlan?.({ triggersDir: "/ws/iteration-1/triggers", total: 3, resumed: false, simulated: true });
    for (const s of [spec(0, 1), spec(0, 2)]) progress.onRunStart?.(s);
    progress.onRunEnd?.(ended(spec(0, 1)));
    progress.onRunDropped?.(spec(0, 3));
    progress.onRunEnd?.(ended(spec(0, 2)));
    expect(lines(io)).toEqual([
      "[1/3] query 1 run-1: triggered (triggered 1, errors 0)",
      "[2/2] query 1 run-2: triggered (triggered 2, errors 0)",
    ]);
  });

  it("closes the count itself when a run is dropped after the last one was listed", () => {
    const io = captureIo();
    const progress = triggerReporter(io);
    progress.onPlan?.({ triggersDir: "/ws/iteration-1/triggers", total: 3, resumed: false, simulated: true });
    for (const s of [spec(0, 1), spec(0, 2)]) {
      progress.onRunStart?.(s);
      progress.onRunEnd?.(ended(s));
    }
    // Run 3 was taken (its store lookup out) when run 2 settled the query; it is dropped only now.
    progress.onRunDropped?.(spec(0, 3));
    progress.onRunDropped?.(spec(0, 3));
    expect(lines(io)).toEqual([
      "[1/3] query 1 run-1: triggered (triggered 1, errors 0)",
      "[2/3] query 1 run-2: triggered (triggered 2, errors 0)",
      "[2/2] done; 1 run not needed (their verdicts settled)",
    ]);
  });
});
