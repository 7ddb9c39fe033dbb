import { dirname } from "node:path";
import type { CatalogDryRun, CatalogReporter, CatalogSummary } from "../../catalog/index.js";
import type { CatalogResults } from "../../contracts/catalog.js";
import type { RunConditions } from "../../contracts/trigger-results.js";
import type { Io } from "../io.js";
import { storePlanLines } from "./dry-run.js";
import { screenPlanLine } from "./screen-line.js";
import { formatDuration } from "./status-line.js";

/** The warning for folders of the catalog folder that hold no SKILL.md: left out, and said so. */
export function skippedLines(skipped: readonly string[]): string[] {
  return skipped.map(
    (folder) =>
      `warning: ${folder} has no SKILL.md: not a skill, left out of the catalog (a skill's folder sits directly inside the catalog folder)`,
  );
}

/** A line per finished catalog run: whose query, and which skill fired first. */
export function catalogReporter(io: Io): CatalogReporter {
  let total = 0;
  let done = 0;
  return {
    onPlan(info) {
      total = info.total;
      for (const line of skippedLines(info.skipped)) io.err(`${line}\n`);
      const mode = info.simulated ? " [SIMULATED: skillgym sim answers, not a model]" : "";
      const part = info.shard ? ` (shard ${info.shard.index}/${info.shard.count})` : "";
      io.err(
        `${info.resumed ? "resuming" : "writing"} ${info.catalogDir}: ${info.skills} skills installed together, ${info.total} runs${part}${mode}\n`,
      );
    },
    onRunEnd(run) {
      done++;
      const what = run.error !== undefined ? `error (${run.outcome})` : `fired ${run.fired}`;
      const reused = run.reused_from ? " (reused)" : run.decided_by === "replay" ? " (replay)" : "";
      io.err(`[${done}/${total}] ${run.dir}: ${what}${reused}\n`);
    },
    onWarning(message) {
      io.err(`warning: ${message}\n`);
    },
  };
}

const pct = (v: number | null) => (v === null ? "–" : `${Math.round(v * 100)}%`);

/** The summary printed when a catalog finishes. */
/** Where the runs were made, in one line; nothing in the clean room. */
export function catalogConditionsLine(conditions: RunConditions | undefined): string | undefined {
  if (!conditions) return undefined;
  const parts = [
    ...(conditions.project_root ? [`each run in a copy of ${conditions.project_root}`] : []),
    ...(conditions.installed
      ? [`rivals installed beside the library: ${conditions.installed.join(", ")}`]
      : []),
    ...(conditions.context
      ? [`each run continues ${conditions.context} (${conditions.context_turns ?? 0} turns)`]
      : []),
  ];
  return parts.length > 0 ? `conditions: ${parts.join("; ")}` : undefined;
}

export function formatCatalogResults(results: CatalogResults): string {
  const conditions = catalogConditionsLine(results.conditions);
  const lines = results.skills.map(
    (s) =>
      `  ${s.name}: ${s.queries === 0 ? "no queries of its own (competitor only)" : `precision ${pct(s.precision)}, recall ${pct(s.recall)}, F1 ${pct(s.f1)}`}`,
  );
  const top = results.pairs[0];
  if (top) lines.push(`  most confused: ${top.skills[0]} ↔ ${top.skills[1]} (${top.runs} runs)`);
  for (const note of results.notes) lines.push(`  note: ${note}`);
  if (conditions) lines.push(`  ${conditions}`);
  return `${lines.join("\n")}\n`;
}

/** Where a finished catalog wrote its matrix, and how to look at it. */
export function catalogFilesLines(summary: CatalogSummary): string[] {
  if (summary.cancelled) return ["  (interrupted; not written: run it again to resume)"];
  return [
    `  catalog.md: ${summary.markdownFile}`,
    `  catalog.json: ${summary.resultsFile}`,
    `  view it: skillgym view ${dirname(summary.catalogDir)}`,
  ];
}

const usd = (x: number) => `$${x.toFixed(2)}`;

/** What `catalog --dry-run` prints before its credentials line: the plan, what is done or stored, cost and time (the skipped folders go to stderr as warnings). */
export function catalogPlanLines(plan: CatalogDryRun): string[] {
  const skills = plan.skills
    .map((s) => `${s.name} (${s.queries === 0 ? "competitor only" : `${s.queries} queries`})`)
    .join(", ");
  const lines = [
    `plan for the catalog of ${plan.dir}: ${plan.skills.length} skills installed together in every run: ${skills}`,
    `${plan.queries} queries × ${plan.runsPerQuery} run(s) = ${plan.shard ? plan.shard.runs : plan.runs} runs`,
  ];
  const conditions = catalogConditionsLine(plan.conditions);
  if (conditions) lines.push(conditions);
  if (plan.shard)
    lines.push(
      `shard ${plan.shard.index}/${plan.shard.count}: ${plan.runs} of ${plan.shard.runs} runs; the lines below are this shard's`,
    );
  lines.push(
    `estimated cost: about ${usd(plan.costUsd)} (rough: ${plan.simulated ? "simulated runs cost nothing" : `${usd(plan.runUsd)} per catalog run`})`,
    plan.resumes
      ? `would resume ${plan.catalogDir}: ${plan.finished} of ${plan.runs} runs already finished there are kept`
      : `would write ${plan.catalogDir}`,
  );
  if (plan.store) lines.push(...storePlanLines(plan.store));
  else lines.push("result store: not read (none, or the agent could not be had): every run is made");
  if (plan.screen) lines.push(screenPlanLine(plan.screen));
  lines.push(
    `estimated wall time: about ${formatDuration(plan.wallSeconds * 1000)} for ${plan.toRun} run(s) to make at --concurrency ${plan.concurrency} (${formatDuration(plan.runSeconds * 1000)} per catalog run: defaults)`,
  );
  return lines;
}
