import { describe, expect, it } from "vitest";
import { terminalReporter } from "../../../src/cli/reporters/run-progress.js";
import { clock, liveIo } from "./live-io.js";
import { evalRecord } from "./records.js";

const plan = { iterationDir: "/ws/iteration-1", total: 3, skipped: 0, resumed: false, simulated: false };
const spec = (runNumber: number) => evalRecord({ runNumber }).spec;

describe("terminalReporter", () => {
  it("prints the plan and a line per finished run, and keeps the live status current while runs are left", () => {
    const io = liveIo();
    const c = clock();
    const spending = { usd: 0, maxUsd: 1 };
    const progress = terminalReporter(io, { spending, now: c.now });
    progress.onPlan?.(plan);
    progress.onRunStart?.(spec(1));
    progress.onRunStart?.(spec(2));
    progress.onGradeStart?.(spec(1));
    c.advance(20_000);
    progress.onRunEnd?.(evalRecord({ runNumber: 1, costUsd: 0.02, judgeCostUsd: 0.01 }));
    progress.onRunRetry?.(spec(2), { attempt: 1, outcome: "rate_limited", delayMs: 2500 });
    c.advance(10_000);
    progress.onRunEnd?.(
      evalRecord({
        runNumber: 2,
        outcome: "timeout",
        error: "no answer in 600 s",
        durationMs: 600_000,
        costUsd: 0.1,
      }),
    );
    progress.onRunEnd?.(evalRecord({ runNumber: 3, outcome: "cancelled", durationMs: 1_500, costUsd: 0 }));
    progress.close();
    expect(io.stderr().split("\n")).toEqual([
      "writing /ws/iteration-1: 3 runs",
      "[1/3] summarise with_skill run-1: ok (12.0 s; errors 0; cost so far $0.0300)",
      "  retry summarise with_skill run-2: rate_limited, attempt 2 in 2.5 s",
      "[2/3] summarise with_skill run-2: timeout: no answer in 600 s (600.0 s; errors 1; cost so far $0.1300)",
      "[3/3] summarise with_skill run-3: cancelled (1.5 s; errors 1; cost so far $0.1300)",
      "",
    ]);
    expect(io.shown).toEqual([
      "eval runs 0/3 done · 0 running · 3 queued · 0s elapsed · time left: estimating · $0.00 of $1.00 (--max-cost)",
      "eval runs 0/3 done · 1 running · 2 queued · 0s elapsed · time left: estimating · $0.00 of $1.00 (--max-cost)",
      "eval runs 0/3 done · 2 running · 1 queued · 0s elapsed · time left: estimating · $0.00 of $1.00 (--max-cost)",
      "eval runs 0/3 done · 1 running · 1 grading · 1 queued · 0s elapsed · time left: estimating · $0.00 of $1.00 (--max-cost)",
      // Drawn as the run ends, before it is counted as having run: the pace is not known yet.
      "eval runs 1/3 done · 1 running · 1 queued · 20s elapsed · time left: estimating · $0.03 of $1.00 (--max-cost)",
      "eval runs 2/3 done · 0 running · 1 queued · 30s elapsed · about 30s left · $0.13 of $1.00 (--max-cost)",
      // The last run ends: the status goes, and close removes it again.
      undefined,
      undefined,
    ]);
    expect(progress.records.map((r) => r.outcome)).toEqual(["success", "timeout", "cancelled"]);
    expect(spending.usd).toBeCloseTo(0.13, 10);
  });

  it("counts a cancelled run in the live status, apart from the errors", () => {
    const io = liveIo();
    const progress = terminalReporter(io, { now: clock().now });
    progress.onPlan?.({ ...plan, total: 2 });
    progress.onRunEnd?.(evalRecord({ runNumber: 1, outcome: "cancelled", durationMs: 1_500, costUsd: 0 }));
    progress.onRunStart?.(spec(2));
    expect(io.shown.at(-1)).toBe(
      "eval runs 1/2 done · 1 running · 0 queued · 1 cancelled · 0s elapsed · about 0s left · $0.00 spent",
    );
    progress.close();
  });

  it("says a resumed, simulated iteration, adaptive rounds, reused and earlier runs, and unpriced runs", () => {
    const io = liveIo();
    const c = clock();
    const progress = terminalReporter(io, { now: c.now });
    progress.onPlan?.({ ...plan, total: 2, resumed: true, simulated: true });
    progress.onMoreRuns?.({ added: 2, evals: ["summarise", "chart"] });
    // Finished in an earlier attempt: counted, not listed.
    progress.onRunEnd?.(evalRecord({ runNumber: 1, skipped: true, costUsd: 0 }));
    progress.onRunEnd?.(
      evalRecord({
        runNumber: 2,
        skipped: true,
        costUsd: 0,
        reusedFrom: {
          iteration: "iteration-4",
          run: "eval-1/with_skill/run-2",
          workspace: "/ws",
          cost_usd: 0.25,
        },
      }),
    );
    progress.onRunEnd?.(evalRecord({ runNumber: 3, costUsd: 0, costUnknown: true, durationMs: 3_000 }));
    progress.onRunEnd?.(evalRecord({ runNumber: 4, costUsd: 0.5, outcome: "crash", durationMs: 3_000 }));
    expect(io.stderr().split("\n")).toEqual([
      "resuming /ws/iteration-1: 2 runs [SIMULATED: skillgym sim answers, not a model]",
      "adaptive: 2 more runs for summarise, chart (with/without still uncertain)",
      "[2/4] summarise with_skill run-2: reused from iteration-4/eval-1/with_skill/run-2 ($0; saved $0.2500)",
      "[3/4] summarise with_skill run-3: ok (3.0 s; errors 0; cost so far $0.0000 + 1 run of unknown cost)",
      "[4/4] summarise with_skill run-4: crash (3.0 s; errors 1; cost so far $0.5000 + 1 run of unknown cost)",
      "",
    ]);
    expect(io.shown.slice(0, 2)).toEqual([
      "eval runs 0/2 done · 0 running · 2 queued · 0s elapsed · time left: estimating · $0.00 spent",
      "eval runs 0/4 done · 0 running · 4 queued · 0s elapsed · time left: estimating · $0.00 spent",
    ]);
    expect(io.shown.at(-1)).toBeUndefined();
  });

  it("counts each eval iteration on its own while the cost adds up over the command", () => {
    const io = liveIo();
    const spending = { usd: 0 };
    const progress = terminalReporter(io, { spending, now: clock().now });
    progress.onPlan?.({ ...plan, total: 1 });
    progress.onRunStart?.(spec(1));
    progress.onRunEnd?.(evalRecord({ runNumber: 1, costUsd: 0.02 }));
    // A run of the first iteration that never ended (cancelled): not running in the next one.
    progress.onRunStart?.(spec(2));
    progress.onPlan?.({ ...plan, iterationDir: "/ws/iteration-2", total: 2 });
    progress.onRunEnd?.(evalRecord({ runNumber: 1, costUsd: 0.02 }));
    expect(io.stderr().split("\n").slice(2)).toEqual([
      "writing /ws/iteration-2: 2 runs",
      "[1/2] summarise with_skill run-1: ok (12.0 s; errors 0; cost so far $0.0400)",
      "",
    ]);
    expect(io.shown.at(-2)).toBe(
      "eval runs 0/2 done · 0 running · 2 queued · 0s elapsed · time left: estimating · $0.02 spent",
    );
  });

  it("uses the real clock and its own spending when given none", () => {
    const io = liveIo();
    const progress = terminalReporter(io);
    progress.onPlan?.({ ...plan, total: 1 });
    expect(io.shown).toEqual([
      "eval runs 0/1 done · 0 running · 1 queued · 0s elapsed · time left: estimating · $0.00 spent",
    ]);
  });
});
