import { describe, expect, it } from "vitest";
import { captureIo } from "../../../src/cli/io.js";
import { triggerReporter } from "../../../src/cli/reporters/trigger-progress.js";
import type { TriggerRunRecord, TriggerRunSpec } from "../../../src/triggers/index.js";
import { clock, liveIo } from "./live-io.js";
import { triggerRecord, triggerSpec } from "./records.js";

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

describe("trigger progress lines and live status", () => {
  const plan = { triggersDir: "/ws/iteration-1/triggers", total: 4, resumed: false, simulated: false };

  it("prints each run's verdict, who stole it, retries and warnings, and keeps the status current", () => {
    const io = liveIo();
    const c = clock();
    const spending = { usd: 0 };
    const progress = triggerReporter(io, { spending, now: c.now });
    progress.onPlan?.(plan);
    progress.onRunStart?.(triggerSpec(0, 1));
    progress.onRunStart?.(triggerSpec(1, 1));
    progress.onRunRetry?.(triggerSpec(1, 1), { attempt: 1, outcome: "overloaded", delayMs: 1500 });
    progress.onWarning?.("replay is off: no API key");
    c.advance(8_000);
    progress.onRunEnd?.(triggerRecord(triggerSpec(0, 1), { cost: 0.02 }));
    progress.onRunEnd?.(
      triggerRecord(triggerSpec(1, 1), { triggered: false, stolenBy: ["pdf", "docx"], cost: 0.01 }),
    );
    progress.onRunStart?.(triggerSpec(2, 1));
    progress.onRunStart?.(triggerSpec(3, 1));
    progress.onRunEnd?.(
      triggerRecord(triggerSpec(2, 1), { outcome: "timeout", error: "no answer", triggered: false }),
    );
    progress.onRunEnd?.(
      triggerRecord(triggerSpec(3, 1), { outcome: "cancelled", triggered: false, costSource: "unknown" }),
    );
    progress.close();
    expect(io.stderr().split("\n")).toEqual([
      "writing /ws/iteration-1/triggers: 4 runs",
      "  retry query 2 run-1: overloaded, in 1.5 s",
      "warning: replay is off: no API key",
      "[1/4] query 1 run-1: triggered (triggered 1, errors 0)",
      "[2/4] query 2 run-1: not triggered, loaded pdf, docx instead (triggered 1, errors 0)",
      "[3/4] query 3 run-1: error (timeout) (triggered 1, errors 1)",
      "[4/4] query 4 run-1: cancelled (triggered 1, errors 1)",
      "",
    ]);
    expect(io.shown).toEqual([
      "trigger runs 0/4 done · 0 running · 4 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "trigger runs 0/4 done · 1 running · 3 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "trigger runs 0/4 done · 2 running · 2 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "trigger runs 1/4 done · 1 running · 2 queued · 8s elapsed · time left: estimating · $0.02 spent",
      // Drawn as the run ends, before it counts as run: one run has set the pace, 8 s each.
      "trigger runs 2/4 done · 0 running · 2 queued · 8s elapsed · about 16s left · $0.03 spent",
      "trigger runs 2/4 done · 1 running · 1 queued · 8s elapsed · about 8s left · $0.03 spent",
      "trigger runs 2/4 done · 2 running · 0 queued · 8s elapsed · about 8s left · $0.03 spent",
      "trigger runs 3/4 done · 1 running · 0 queued · 1 errors · 8s elapsed · about 4s left · $0.04 spent",
      undefined,
      undefined,
    ]);
    // The cancelled run's cost is unknown: counted apart.
    expect(spending).toEqual({ usd: 0.04, unpriced: 1 });
  });

  it("counts a cancelled run in the live status while others still run", () => {
    const io = liveIo();
    const progress = triggerReporter(io, { spending: { usd: 0 }, now: clock().now });
    progress.onPlan?.({ ...plan, total: 3 });
    progress.onRunStart?.(triggerSpec(0, 1));
    progress.onRunStart?.(triggerSpec(1, 1));
    progress.onRunEnd?.(triggerRecord(triggerSpec(0, 1), { outcome: "cancelled", triggered: false }));
    expect(io.shown.at(-1)).toBe(
      "trigger runs 1/3 done · 1 running · 1 queued · 1 cancelled · 0s elapsed · time left: estimating · $0.01 spent",
    );
    progress.close();
  });

  it("counts runs finished earlier and reused ones without listing them as run, on a resumed, simulated plan", () => {
    const io = liveIo();
    const spending = { usd: 0 };
    const progress = triggerReporter(io, { spending, now: clock().now });
    progress.onPlan?.({ ...plan, total: 4, resumed: true, simulated: true });
    progress.onRunStart?.(triggerSpec(1, 1));
    progress.onRunEnd?.(triggerRecord(triggerSpec(0, 1), { skipped: true, cost: 0.5 }));
    progress.onRunEnd?.(
      triggerRecord(triggerSpec(0, 2), {
        skipped: true,
        triggered: false,
        cost: 0,
        reusedFrom: {
          iteration: "iteration-3",
          run: "triggers/query-1/run-2",
          workspace: "/ws",
          cost_usd: 0.03,
        },
      }),
    );
    progress.onRunEnd?.(
      triggerRecord(triggerSpec(0, 3), {
        skipped: true,
        cost: 0,
        reusedFrom: {
          iteration: "iteration-3",
          run: "triggers/query-1/run-3",
          workspace: "/ws",
          cost_usd: 0.03,
        },
      }),
    );
    expect(io.stderr().split("\n")).toEqual([
      "resuming /ws/iteration-1/triggers: 4 runs [SIMULATED: skillgym sim answers, not a model]",
      "[2/4] query 1 run-2: not triggered, reused from iteration-3/triggers/query-1/run-2",
      "[3/4] query 1 run-3: triggered, reused from iteration-3/triggers/query-1/run-3",
      "",
    ]);
    // Runs finished earlier cost nothing now, and never ran here.
    expect(spending).toEqual({ usd: 0 });
    // The run that started keeps running while the earlier ones end.
    expect(io.shown).toEqual([
      "trigger runs 0/4 done · 0 running · 4 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "trigger runs 0/4 done · 1 running · 3 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "trigger runs 1/4 done · 1 running · 2 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "trigger runs 2/4 done · 1 running · 1 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "trigger runs 3/4 done · 1 running · 0 queued · 0s elapsed · time left: estimating · $0.00 spent",
    ]);
  });

  it("says how many runs were not needed, in the plural, and starts each plan afresh", () => {
    const io = liveIo();
    const progress = triggerReporter(io, { now: clock().now });
    progress.onPlan?.({ ...plan, total: 3 });
    progress.onRunStart?.(triggerSpec(0, 1));
    progress.onRunEnd?.(triggerRecord(triggerSpec(0, 1)));
    progress.onRunDropped?.(triggerSpec(0, 2));
    progress.onRunDropped?.(triggerSpec(0, 3));
    // Side by side: the real conditions' runs count from zero again.
    progress.onPlan?.({ ...plan, total: 2, condition: "real" });
    progress.onRunStart?.(triggerSpec(0, 1));
    progress.onRunDropped?.(triggerSpec(0, 2));
    progress.onRunEnd?.(triggerRecord(triggerSpec(0, 1), { triggered: false }));
    expect(io.stderr().split("\n")).toEqual([
      "writing /ws/iteration-1/triggers: 3 runs",
      "[1/3] query 1 run-1: triggered (triggered 1, errors 0)",
      "[1/1] done; 2 runs not needed (their verdicts settled)",
      "writing /ws/iteration-1/triggers: 2 runs",
      "[1/1] query 1 run-1: not triggered (triggered 0, errors 0)",
      "",
    ]);
    expect(io.shown).toEqual([
      "trigger runs 0/3 done · 0 running · 3 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "trigger runs 0/3 done · 1 running · 2 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "trigger runs 1/3 done · 0 running · 2 queued · 0s elapsed · time left: estimating · $0.01 spent",
      "trigger runs 1/2 done · 0 running · 1 queued · 0s elapsed · about 0s left · $0.01 spent",
      undefined,
      "trigger runs 0/2 done · 0 running · 2 queued · 0s elapsed · time left: estimating · $0.01 spent",
      "trigger runs 0/2 done · 1 running · 1 queued · 0s elapsed · time left: estimating · $0.01 spent",
      "trigger runs 0/1 done · 1 running · 0 queued · 0s elapsed · time left: estimating · $0.01 spent",
      undefined,
    ]);
  });

  it("drops nothing below the runs done, and tells nothing while a run still runs", () => {
    const io = liveIo();
    const progress = triggerReporter(io, { now: clock().now });
    progress.onPlan?.({ ...plan, total: 2 });
    progress.onRunStart?.(triggerSpec(0, 1));
    progress.onRunStart?.(triggerSpec(0, 2));
    progress.onRunEnd?.(triggerRecord(triggerSpec(0, 1)));
    progress.onRunDropped?.(triggerSpec(0, 3));
    progress.onRunDropped?.(triggerSpec(0, 4));
    expect(io.stderr().split("\n")).toEqual([
      "writing /ws/iteration-1/triggers: 2 runs",
      "[1/2] query 1 run-1: triggered (triggered 1, errors 0)",
      "",
    ]);
    expect(io.shown.slice(-2)).toEqual([undefined, undefined]);
    // Told of more drops than runs were left, the count stops at the runs done then.
    progress.onRunEnd?.(triggerRecord(triggerSpec(0, 2)));
    expect(io.stderr().split("\n").at(-2)).toBe("[2/1] query 1 run-2: triggered (triggered 2, errors 0)");
  });
});
