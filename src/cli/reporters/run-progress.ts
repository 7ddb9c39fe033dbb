import type { RunReporter } from "../../run/reporter.js";
import type { RunRecord } from "../../run/run-record.js";
import type { Io } from "../io.js";
import { newTally, type Spending, spend, spentText, statusText, type Tally } from "./status-line.js";

export interface ProgressOptions {
  /** Shared with the command's other reporters so the cost adds up over the whole command. */
  spending?: Spending;
  now?: () => number;
}

// What the live status counts.
const LABEL = "eval runs";

/**
 * Progress of eval runs: a line per finished run (CI-friendly) and, on a terminal, a live status under them
 * (runs done / running / grading / queued, elapsed, time left, cost). `close` removes the status.
 */
export function terminalReporter(
  io: Io,
  options: ProgressOptions = {},
): RunReporter & { records: RunRecord[]; close(): void } {
  const now = options.now ?? Date.now;
  const spending = options.spending ?? { usd: 0 };
  let tally: Tally = newTally(LABEL, 0, now());
  const phase = new Map<string, "running" | "grading">();
  const records: RunRecord[] = [];
  const status = () => {
    const running = [...phase.values()].filter((p) => p === "running").length;
    return statusText({ ...tally, running, grading: phase.size - running }, spending, now());
  };
  // Shown while runs are left; each `io.err` line redraws it below with the counts of that moment.
  const redraw = () => io.status(tally.done < tally.total ? status : undefined);
  return {
    records,
    onPlan(info) {
      // Each eval iteration (a tune measures several) counts its own runs; the cost adds up over the command.
      tally = newTally(LABEL, info.total, now());
      phase.clear();
      const mode = info.simulated ? " [SIMULATED: skillgym sim answers, not a model]" : "";
      io.err(`${info.resumed ? "resuming" : "writing"} ${info.iterationDir}: ${info.total} runs${mode}\n`);
      redraw();
    },
    onMoreRuns(info) {
      tally = { ...tally, total: tally.total + info.added };
      io.err(
        `adaptive: ${info.added} more runs for ${info.evals.join(", ")} (with/without still uncertain)\n`,
      );
      redraw();
    },
    onRunStart(spec) {
      phase.set(spec.runDir, "running");
      redraw();
    },
    onRunRetry(spec, info) {
      io.err(
        `  retry ${spec.evalName} ${spec.configuration} run-${spec.runNumber}: ${info.outcome}, attempt ${info.attempt + 1} in ${(info.delayMs / 1000).toFixed(1)} s\n`,
      );
    },
    onGradeStart(spec) {
      phase.set(spec.runDir, "grading");
      redraw();
    },
    onRunEnd(record) {
      records.push(record);
      phase.delete(record.spec.runDir);
      tally.done++;
      spend(spending, record.costUnknown ? undefined : record.costUsd);
      spending.usd += record.judgeCostUsd ?? 0;
      // A run finished in an earlier attempt is counted, not listed again.
      redraw();
      if (record.reusedFrom) {
        const from = record.reusedFrom;
        io.err(
          `[${tally.done}/${tally.total}] ${record.spec.evalName} ${record.spec.configuration} run-${record.spec.runNumber}: reused from ${from.iteration}/${from.run} ($0; saved $${from.cost_usd.toFixed(4)})\n`,
        );
      }
      if (record.skipped) return;
      tally.ran++;
      // A run cancelled by Ctrl-C is not an error of the run: it is reported as cancelled.
      if (record.outcome === "cancelled") tally.cancelled++;
      else if (record.outcome !== "success") tally.errors++;
      const { spec } = record;
      const verdict =
        record.outcome === "success" ? "ok" : `${record.outcome}${record.error ? `: ${record.error}` : ""}`;
      io.err(
        `[${tally.done}/${tally.total}] ${spec.evalName} ${spec.configuration} run-${spec.runNumber}: ${verdict} ` +
          `(${(record.durationMs / 1000).toFixed(1)} s; errors ${tally.errors}; cost so far ${spentText(spending.usd, spending.unpriced, 4)})\n`,
      );
    },
    close: () => io.status(undefined),
  };
}
