import { join, relative, resolve, sep } from "node:path";
import { DEFAULT_EFFECT_FLOOR } from "../bench/verdict.js";
import { Benchmark } from "../contracts/benchmark.js";
import { RunHistory, type RunHistoryIteration } from "../contracts/run-history.js";
import { IterationRecord } from "../contracts/run-record.js";
import { TriggerResults } from "../contracts/trigger-results.js";
import { diffIterations } from "../diff/index.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { HISTORY_FILE, ITERATION_FILE, iterationNumberOf, TRIGGERS_DIR } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { historyRow, type ParentComparison, type PartFacts, parentOf, placeRows } from "./history-rows.js";

export interface HistoryOptions {
  /** The floor asked for (`--effect-floor`); a benchmark whose verdict used another (the noise spread) says which. */
  effectFloor?: number;
}

// An iteration's folder (or a part's inside one) as the facts of its row; undefined when it has no benchmark.json.
async function readPart(workspace: string, dir: string): Promise<PartFacts | undefined> {
  const [folder, part, ...deeper] = relative(workspace, dir).split(sep);
  const iteration = folder === undefined ? undefined : iterationNumberOf(folder);
  if (iteration === undefined || deeper.length > 0) return undefined;
  const benchmark = await readRecordIfValid(join(dir, "benchmark.json"), Benchmark);
  if (!benchmark) return undefined;
  const [record, triggers] = await Promise.all([
    readRecordIfValid(join(dir, ITERATION_FILE), IterationRecord),
    readRecordIfValid(join(dir, TRIGGERS_DIR, "trigger-results.json"), TriggerResults),
  ]);
  const ran = benchmark.metadata.executor_model;
  const model = record?.model ?? (ran === "unknown" ? undefined : ran);
  return {
    version: part ? `${folder}/${part}` : folder!,
    iteration,
    ...(part ? { part } : {}),
    // iteration.json names no agent in iterations written before it did: those were Claude Code's.
    agent: record?.agent?.name ?? "claude-code",
    ...(record?.agent?.version ? { agentVersion: record.agent.version } : {}),
    ...(model ? { model } : {}),
    ...(record?.skill_hash ? { skillHash: record.skill_hash } : {}),
    benchmark,
    ...(triggers ? { triggerAccuracy: triggers.summary.accuracy ?? null } : {}),
  };
}

// The parent's folder may be gone (deleted since): then there is nothing to compare with.
async function compareWithParent(
  workspace: string,
  parentVersion: string,
  dir: string,
  floor: number,
): Promise<ParentComparison | undefined> {
  const report = await diffIterations(join(workspace, parentVersion), dir, { effectFloor: floor }).catch(
    () => undefined,
  );
  const part = report?.parts[0];
  if (!part) return undefined;
  return {
    change: part.overall?.change ?? "inconclusive",
    regressedEvals: part.evals.filter((e) => e.change === "regressed").length,
  };
}

/**
 * Writes history.json at the workspace root with a row for each folder given (an iteration, or the parts of an
 * iteration of several agents or models), each compared with its parent as `skillgym diff` would; folders without
 * a benchmark.json get no row. A history.json that does not parse is started afresh.
 */
export async function recordRunHistory(
  workspace: string,
  dirs: readonly string[],
  options: HistoryOptions = {},
): Promise<RunHistory | undefined> {
  const root = resolve(workspace);
  const file = join(root, HISTORY_FILE);
  const parsed = RunHistory.safeParse(await readJsonIfPresent(file));
  const earlier = parsed.success ? parsed.data : undefined;
  const rows: RunHistoryIteration[] = [];
  let skillName: string | undefined;
  for (const dir of dirs) {
    const facts = await readPart(root, resolve(dir));
    if (!facts) continue;
    skillName = facts.benchmark.metadata.skill_name;
    const floor = facts.benchmark.statistics?.verdict?.floor ?? options.effectFloor ?? DEFAULT_EFFECT_FLOOR;
    const parent = parentOf(earlier?.iterations ?? [], facts);
    const comparison = parent
      ? await compareWithParent(root, parent.version, resolve(dir), floor)
      : undefined;
    rows.push(historyRow(facts, parent, comparison, floor));
  }
  if (!skillName) return undefined;
  const history = placeRows(earlier, rows, { skillName, now: new Date().toISOString() });
  await writeJson(file, history);
  return history;
}
