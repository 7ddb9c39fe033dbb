import type { RunReporter } from "../run/reporter.js";
import type { RunRecord } from "../run/run-record.js";
import type { Io } from "./io.js";

/** Live progress for long work: runs done of total, passes so far, errors, cost. One line per event (CI-friendly). */
export function terminalReporter(io: Io): RunReporter & { records: RunRecord[] } {
  let total = 0;
  let done = 0;
  let errors = 0;
  let cost = 0;
  const records: RunRecord[] = [];
  return {
    records,
    onPlan(info) {
      // Each eval iteration (a tune measures several) counts its own runs; the cost adds up over the command.
      total = info.total;
      done = 0;
      errors = 0;
      const mode = info.simulated ? " [SIMULATED: skillgym sim answers, not a model]" : "";
      io.err(`${info.resumed ? "resuming" : "writing"} ${info.iterationDir}: ${total} runs${mode}\n`);
    },
    onRunRetry(spec, info) {
      io.err(
        `  retry ${spec.evalName} ${spec.configuration} run-${spec.runNumber}: ${info.outcome}, attempt ${info.attempt + 1} in ${(info.delayMs / 1000).toFixed(1)} s\n`,
      );
    },
    onRunEnd(record) {
      records.push(record);
      done++;
      cost += record.costUsd;
      // A run cancelled by Ctrl-C is not an error of the run: it is reported as cancelled.
      if (record.outcome !== "success" && record.outcome !== "cancelled") errors++;
      const { spec } = record;
      const status =
        record.outcome === "success" ? "ok" : `${record.outcome}${record.error ? `: ${record.error}` : ""}`;
      io.err(
        `[${done}/${total}] ${spec.evalName} ${spec.configuration} run-${spec.runNumber}: ${status} ` +
          `(${(record.durationMs / 1000).toFixed(1)} s; errors ${errors}; cost so far $${cost.toFixed(4)})\n`,
      );
    },
  };
}
