import type { TriggerReporter } from "../triggers/index.js";
import type { Io } from "./io.js";

/** Live progress of a trigger eval: runs done of total, triggered so far, errors. */
export function triggerReporter(io: Io): TriggerReporter {
  let total = 0;
  let done = 0;
  let triggered = 0;
  let errors = 0;
  return {
    onPlan(info) {
      total = info.total;
      const mode = info.simulated ? " [SIMULATED: skillgym sim answers, not a model]" : "";
      io.err(`${info.resumed ? "resuming" : "writing"} ${info.triggersDir}: ${total} runs${mode}\n`);
    },
    onRunRetry(spec, info) {
      io.err(
        `  retry query ${spec.queryIndex + 1} run-${spec.runNumber}: ${info.outcome}, in ${(info.delayMs / 1000).toFixed(1)} s\n`,
      );
    },
    onRunEnd(record) {
      done++;
      const cancelled = record.outcome === "cancelled";
      if (record.error !== undefined && !cancelled) errors++;
      else if (record.triggered) triggered++;
      const what = cancelled
        ? "cancelled"
        : record.error !== undefined
          ? `error (${record.outcome})`
          : record.triggered
            ? "triggered"
            : "not triggered";
      const stolen = record.stolenBy.length > 0 ? `, loaded ${record.stolenBy.join(", ")} instead` : "";
      io.err(
        `[${done}/${total}] query ${record.spec.queryIndex + 1} run-${record.spec.runNumber}: ${what}${stolen}` +
          ` (triggered ${triggered}, errors ${errors})\n`,
      );
    },
  };
}
