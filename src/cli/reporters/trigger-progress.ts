import type { TriggerReporter } from "../../triggers/index.js";
import type { Io } from "../io.js";
import type { ProgressOptions } from "./run-progress.js";
import { newTally, type Spending, spend, statusText, type Tally } from "./status-line.js";

// What the live status counts.
const LABEL = "trigger runs";

/** Progress of a trigger eval: a line per finished run and, on a terminal, a live status under them. */
export function triggerReporter(io: Io, options: ProgressOptions = {}): TriggerReporter & { close(): void } {
  const now = options.now ?? Date.now;
  const spending: Spending = options.spending ?? { usd: 0 };
  let tally: Tally = newTally(LABEL, 0, now());
  let triggered = 0;
  let dropped = 0;
  const status = () => statusText(tally, spending, now());
  // Shown while runs are left; each `io.err` line redraws it below with the counts of that moment.
  const redraw = () => io.status(tally.done < tally.total ? status : undefined);
  return {
    onPlan(info) {
      tally = newTally(LABEL, info.total, now());
      triggered = 0;
      dropped = 0;
      const mode = info.simulated ? " [SIMULATED: skillgym sim answers, not a model]" : "";
      io.err(`${info.resumed ? "resuming" : "writing"} ${info.triggersDir}: ${info.total} runs${mode}\n`);
      redraw();
    },
    onRunStart() {
      tally.running++;
      redraw();
    },
    onRunRetry(spec, info) {
      io.err(
        `  retry query ${spec.queryIndex + 1} run-${spec.runNumber}: ${info.outcome}, in ${(info.delayMs / 1000).toFixed(1)} s\n`,
      );
    },
    onRunDropped() {
      // The query's verdict settled: this run is no longer part of the work.
      const before = tally.total;
      tally.total = Math.max(tally.done, tally.total - 1);
      dropped++;
      // Dropped after the last run was listed (its query settled while it was being taken): the count closes here.
      if (before > tally.total && tally.done === tally.total && tally.running === 0)
        io.err(
          `[${tally.done}/${tally.total}] done; ${dropped} run${dropped === 1 ? "" : "s"} not needed (their verdicts settled)\n`,
        );
      redraw();
    },
    onWarning(message) {
      io.err(`warning: ${message}\n`);
    },
    onRunEnd(record) {
      // A run finished in an earlier attempt ends without having started.
      if (!record.skipped) tally.running = Math.max(0, tally.running - 1);
      tally.done++;
      if (!record.skipped) spend(spending, record.record.cost_usd);
      const cancelled = record.outcome === "cancelled";
      if (cancelled) tally.cancelled++;
      else if (record.error !== undefined) tally.errors++;
      else if (record.triggered) triggered++;
      redraw();
      if (record.reusedFrom)
        io.err(
          `[${tally.done}/${tally.total}] query ${record.spec.queryIndex + 1} run-${record.spec.runNumber}: ${record.triggered ? "triggered" : "not triggered"}, reused from ${record.reusedFrom.iteration}/${record.reusedFrom.run}\n`,
        );
      if (record.skipped) return;
      tally.ran++;
      const what = cancelled
        ? "cancelled"
        : record.error !== undefined
          ? `error (${record.outcome})`
          : record.triggered
            ? "triggered"
            : "not triggered";
      const stolen = record.stolenBy.length > 0 ? `, loaded ${record.stolenBy.join(", ")} instead` : "";
      io.err(
        `[${tally.done}/${tally.total}] query ${record.spec.queryIndex + 1} run-${record.spec.runNumber}: ${what}${stolen}` +
          ` (triggered ${triggered}, errors ${tally.errors})\n`,
      );
    },
    close: () => io.status(undefined),
  };
}
