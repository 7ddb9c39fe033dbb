import { join, resolve } from "node:path";
import type { z } from "zod";
import { Activation } from "../contracts/activation.js";
import { type Configuration, configurations } from "../contracts/benchmark.js";
import { type EvalId, EvalMetadata } from "../contracts/evals.js";
import { Grading } from "../contracts/grading.js";
import { JudgesReport } from "../contracts/judges.js";
import { AgentsIterationRecord } from "../contracts/matrix.js";
import { Metrics } from "../contracts/metrics.js";
import { IterationRecord } from "../contracts/run-record.js";
import { Timing } from "../contracts/timing.js";
import { SkillgymError } from "../errors.js";
import {
  agentIterationDir,
  EVAL_METADATA_FILE,
  evalDirName,
  evalIdFromDirName,
  ITERATION_FILE,
  METRICS_FILE,
  RUN_FILES,
  runDirName,
} from "../runlog/layout.js";
import { configurationFolders, evalFolders, runFolders } from "../runlog/list-runs.js";
import { brokenRecordText, readRecord, readRecordIfValid } from "../runlog/read-record.js";
import type { EvalData, IterationData, RunData, RunExclusion } from "./model.js";

type FileRead<T> = { state: "ok"; value: T } | { state: "missing" } | { state: "broken"; problem: string };

async function readFileAs<S extends z.ZodType>(
  root: string,
  relative: string,
  schema: S,
): Promise<FileRead<z.output<S>>> {
  const read = await readRecord(join(root, relative), schema);
  if (read.state !== "broken") return read;
  return { state: "broken", problem: brokenRecordText(relative, read.finding) };
}

export function compareEvalIds(a: EvalId, b: EvalId): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { numeric: true });
}

function isConfiguration(name: string): name is Configuration {
  return (configurations as readonly string[]).includes(name);
}

async function readIterationFile(root: string, problems: string[]): Promise<IterationRecord | undefined> {
  const read = await readFileAs(root, ITERATION_FILE, IterationRecord);
  if (read.state === "ok") return read.value;
  if (read.state === "broken") problems.push(`${read.problem}; the plan was read from the folders instead`);
  return undefined;
}

async function readEval(root: string, folder: string, problems: string[]): Promise<EvalData> {
  const read = await readFileAs(root, join(folder, EVAL_METADATA_FILE), EvalMetadata);
  if (read.state === "ok") return { id: read.value.eval_id, name: read.value.eval_name, folder };
  problems.push(
    read.state === "missing"
      ? `${folder}/${EVAL_METADATA_FILE} is missing; the eval id comes from the folder name`
      : `${read.problem}; the eval id comes from the folder name`,
  );
  return { id: evalIdFromDirName(folder), name: folder, folder };
}

function outcomeOf(timing: Timing | undefined): { outcome?: string; error?: string } {
  const outcome = typeof timing?.outcome === "string" ? timing.outcome : undefined;
  const error = typeof timing?.error === "string" ? timing.error : undefined;
  return { ...(outcome ? { outcome } : {}), ...(error ? { error } : {}) };
}

function judgeModelOf(grading: Grading | undefined): string | undefined {
  if (typeof grading?.judge_model === "string") return grading.judge_model;
  const judge = grading?.judge;
  if (
    judge &&
    // Stryker disable next-line ConditionalExpression: equivalent, a string or number judge has no model property either
    typeof judge === "object" &&
    typeof (judge as { model?: unknown }).model === "string"
  )
    return (judge as { model: string }).model;
  return undefined;
}

interface RunPlace {
  evalData: EvalData;
  folder: string;
  configuration: Configuration;
  runNumber: number;
}

async function readRun(root: string, place: RunPlace, exists: boolean): Promise<RunData> {
  const base = {
    evalId: place.evalData.id,
    evalName: place.evalData.name,
    configuration: place.configuration,
    runNumber: place.runNumber,
  };
  const rel = `${place.folder}/${place.configuration}/${runDirName(place.runNumber)}`;
  if (!exists) {
    const message = `not run: the iteration planned it but ${rel}/ does not exist (interrupted?)`;
    return { ...base, exclusion: { kind: "not_run", reason: "not run", message }, problems: [] };
  }
  const [grading, timing, metrics, activation] = await Promise.all([
    readFileAs(root, `${rel}/${RUN_FILES.grading}`, Grading),
    readFileAs(root, `${rel}/${RUN_FILES.timing}`, Timing),
    readFileAs(root, `${rel}/${RUN_FILES.outputs}/${METRICS_FILE}`, Metrics),
    readFileAs(root, `${rel}/${RUN_FILES.activation}`, Activation),
  ]);
  const activationValue = activation.state === "ok" ? activation.value : undefined;
  const timingValue = timing.state === "ok" ? timing.value : undefined;
  const gradingValue = grading.state === "ok" ? grading.value : undefined;
  const status = outcomeOf(timingValue);
  const exclusion = excludedBecause(status, grading, timing) ?? contaminated(activationValue);
  const problems: string[] = [];
  if (!exclusion) {
    if (timing.state === "missing") problems.push(`${rel}/timing.json is missing: time and tokens unknown`);
    if (metrics.state === "missing")
      problems.push(`${rel}/outputs/metrics.json is missing: tool calls unknown`);
    if (metrics.state === "broken") problems.push(`${metrics.problem}: tool calls unknown`);
  }
  const judgeModel = judgeModelOf(gradingValue);
  return {
    ...base,
    ...(gradingValue ? { grading: gradingValue } : {}),
    ...(timingValue ? { timing: timingValue } : {}),
    ...(metrics.state === "ok" ? { metrics: metrics.value } : {}),
    ...(activationValue ? { activation: activationValue } : {}),
    ...(status.outcome ? { outcome: status.outcome } : {}),
    ...(typeof timingValue?.simulated === "boolean" ? { simulated: timingValue.simulated } : {}),
    ...(timingValue?.model ? { model: timingValue.model } : {}),
    ...(judgeModel ? { judgeModel } : {}),
    ...(exclusion ? { exclusion } : {}),
    problems,
  };
}

function contaminated(activation: Activation | undefined): RunExclusion | undefined {
  if (!activation?.contaminated) return undefined;
  return {
    kind: "contaminated",
    reason: "contaminated",
    message: `contaminated: ${activation.contamination.join("; ")}`,
  };
}

function excludedBecause(
  status: { outcome?: string; error?: string },
  grading: FileRead<Grading>,
  timing: FileRead<Timing>,
): RunExclusion | undefined {
  if (status.outcome && status.outcome !== "success") {
    const message = status.error ? `${status.outcome}: ${status.error}` : status.outcome;
    return { kind: "errored", reason: status.outcome, message };
  }
  if (grading.state === "broken")
    return { kind: "unreadable", reason: "unreadable", message: grading.problem };
  if (timing.state === "broken") return { kind: "unreadable", reason: "unreadable", message: timing.problem };
  if (grading.state === "missing")
    return { kind: "ungraded", reason: "not graded", message: "not graded yet: grading.json is missing" };
  return undefined;
}

async function readEvalRuns(
  root: string,
  folder: string,
  evalData: EvalData,
  plan: IterationRecord["plan"] | undefined,
  problems: string[],
): Promise<RunData[]> {
  const found = new Set<string>();
  const wanted = new Set<string>();
  const key = (c: Configuration, k: number) => `${c}\u0000${k}`;
  for (const name of await configurationFolders(join(root, folder))) {
    if (!isConfiguration(name)) {
      problems.push(
        `${folder}/${name}/ is not a configuration skillgym knows (${configurations.join(", ")}); left out`,
      );
      continue;
    }
    for (const { runNumber } of await runFolders(join(root, folder, name))) {
      if (runNumber >= 1) found.add(key(name, runNumber));
    }
  }
  for (const c of plan?.configurations ?? []) {
    for (let k = 1; k <= (plan?.runs_per_configuration ?? 0); k++) wanted.add(key(c, k));
  }
  const places = [...new Set([...found, ...wanted])].map((k) => {
    const [configuration, n] = k.split("\u0000") as [Configuration, string];
    return { evalData, folder, configuration, runNumber: Number(n), exists: found.has(k) };
  });
  return Promise.all(places.map((p) => readRun(root, p, p.exists)));
}

function notAnIteration(root: string, problems: string[]): SkillgymError {
  // Only iteration.json's one problem can come before this refusal.
  const why = problems.length > 0 ? ` (${problems[0]})` : "";
  return new SkillgymError(
    "BAD_INPUT",
    `${root} is not an iteration folder: it has no readable iteration.json and no eval-<id>/ folders${why}`,
    { hint: "pass a folder written by `skillgym eval`, such as <skill>-workspace/iteration-1", file: root },
  );
}

// The root of an iteration that ran several agents holds theirs, one folder each.
async function severalAgents(root: string): Promise<SkillgymError | undefined> {
  const read = await readFileAs(root, ITERATION_FILE, AgentsIterationRecord);
  if (read.state !== "ok") return undefined;
  const folders = read.value.agents.map((agent) => agentIterationDir(root, agent));
  return new SkillgymError(
    "BAD_INPUT",
    `${root} ran several agents (${read.value.agents.join(", ")}); each has its own iteration folder: ${folders.join(", ")}`,
    { hint: `pass one of them, such as ${folders[0]}`, file: root },
  );
}

/** Reads every run of an iteration; broken or missing files become notes on the run, never a crash. */
export async function readIteration(dir: string): Promise<IterationData> {
  const root = resolve(dir);
  let folders: string[];
  try {
    folders = await evalFolders(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const what =
      code === "ENOENT" ? "does not exist" : code === "ENOTDIR" ? "is not a folder" : "cannot be read";
    throw new SkillgymError("BAD_INPUT", `${root} ${what}`, {
      hint: "pass an iteration folder written by `skillgym eval`, such as <skill>-workspace/iteration-1",
      file: root,
    });
  }
  const problems: string[] = [];
  const record = await readIterationFile(root, problems);
  if (!record && folders.length === 0) throw (await severalAgents(root)) ?? notAnIteration(root, problems);

  const plannedOrFound = new Map<string, string | undefined>(folders.map((f) => [f, f]));
  for (const id of record?.plan.evals ?? []) {
    if (!plannedOrFound.has(evalDirName(id))) plannedOrFound.set(evalDirName(id), undefined);
  }
  const evals: EvalData[] = [];
  const runs: RunData[] = [];
  for (const [folder, present] of plannedOrFound) {
    const planned = record?.plan.evals.find((id) => evalDirName(id) === folder);
    let evalData: EvalData = present
      ? await readEval(root, folder, problems)
      : { id: planned ?? evalIdFromDirName(folder), name: `eval-${planned}`, folder };
    if (evals.some((e) => String(e.id) === String(evalData.id))) {
      problems.push(
        `${folder}/eval_metadata.json repeats eval id ${JSON.stringify(evalData.id)}; the folder name is used`,
      );
      evalData = { ...evalData, id: folder };
    }
    evals.push(evalData);
    // A shard's absent runs are other shards' (`--shard i/n`), not runs that did not happen.
    const plan = record?.shard ? undefined : record?.plan;
    runs.push(...(await readEvalRuns(root, folder, evalData, plan, problems)));
  }
  // The plan lists the suite's ids, which name the folders; eval_metadata's eval_id may be a position instead.
  const folderOf = new Map(evals.map((e) => [String(e.id), e.folder]));
  const order = (id: EvalId) => {
    const folder = folderOf.get(String(id));
    // Stryker disable next-line UnaryOperator: equivalent, with no iteration.json every eval gets the same order
    const i = record?.plan.evals.findIndex((p) => evalDirName(p) === folder) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const byEval = (a: EvalId, b: EvalId) => order(a) - order(b) || compareEvalIds(a, b);
  evals.sort((a, b) => byEval(a.id, b.id));
  runs.sort(
    (a, b) =>
      byEval(a.evalId, b.evalId) ||
      configurations.indexOf(a.configuration) - configurations.indexOf(b.configuration) ||
      a.runNumber - b.runNumber,
  );
  const present = new Set(runs.map((r) => r.configuration));
  // judges.json (`skillgym judges`) beside the runs: its ambiguous expectations become notes.
  const judges = await readRecordIfValid(join(root, "judges.json"), JudgesReport);
  return {
    dir: root,
    ...(record ? { record } : {}),
    ...(judges ? { ambiguous: judges.ambiguous } : {}),
    evals,
    configurations: configurations.filter((c) => present.has(c)),
    runs,
    problems: problems.sort(),
  };
}
