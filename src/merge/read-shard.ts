import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { z } from "zod";
import { IterationRecord, TriggerPlan } from "../contracts/run-record.js";
import type { ShardInfo } from "../contracts/shard.js";
import { TriggerResults } from "../contracts/trigger-results.js";
import { SkillgymError } from "../errors.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { ITERATION_FILE, iterationDirName, runPaths, TRIGGERS_DIR } from "../runlog/layout.js";
import { iterationNumbers, listRuns, triggerRunFolders } from "../runlog/list-runs.js";
import { brokenRecordText, readRecord } from "../runlog/read-record.js";
import { refuseCatalogFolder } from "./refuse-catalog.js";

/** One shard's partial iteration, read into plain data. */
export interface ShardData {
  /** The folder the user named. */
  source: string;
  /** The iteration folder inside it that holds the shard. */
  dir: string;
  iteration?: IterationRecord & { shard: ShardInfo };
  triggerPlan?: TriggerPlan & { shard: ShardInfo };
  triggerResults?: TriggerResults;
  /** `eval-<id>/<configuration>/run-<k>` of every eval run folder. */
  evalRuns: string[];
  /** `query-<i>/run-<k>` of every trigger run folder. */
  triggerRuns: string[];
  /** How many of those folders hold a run that ended (not cancelled, not cut off), within the plan's run numbers. */
  finished: { evalRuns: number; triggerRuns: number };
}

async function read<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S> | undefined> {
  const got = await readRecord(file, schema);
  if (got.state === "broken")
    throw new SkillgymError("BAD_INPUT", brokenRecordText(file, got.finding), { file });
  return got.state === "ok" ? got.value : undefined;
}

/** A shard folder is an iteration (it has iteration.json or triggers/plan.json) or a workspace whose latest iteration is one. */
export async function shardIterationDir(source: string): Promise<string> {
  const dir = resolve(source);
  const own = await readdir(dir).catch(() => {
    throw new SkillgymError("BAD_INPUT", `${source}: no such folder`, { file: source });
  });
  if (own.includes(ITERATION_FILE) || own.includes(TRIGGERS_DIR)) return dir;
  await refuseCatalogFolder(source, dir);
  const latest = (await iterationNumbers(dir)).at(-1);
  if (latest === undefined)
    throw new SkillgymError(
      "BAD_INPUT",
      `${source} holds no iteration (no iteration.json, no iteration-<N>/)`,
      {
        file: source,
        hint: "name the workspace a `--shard i/n` run wrote, or its iteration folder",
      },
    );
  return join(dir, iterationDirName(latest));
}

const runNumber = (run: string) => Number(/run-(\d+)$/.exec(run)?.[1] ?? 0);

// A run ended when its record says so; one cut off by Ctrl-C says `cancelled`, or was never written.
async function ended(file: string): Promise<boolean> {
  const record = (await readJsonIfPresent(file)) as { outcome?: unknown } | undefined;
  return typeof record?.outcome === "string" && record.outcome !== "cancelled";
}

/** The runs of a shard's share that ended; every folder of a shard that completed, else each one's record read. */
async function finishedRuns(
  dir: string,
  iteration: IterationRecord | undefined,
  triggerPlan: TriggerPlan | undefined,
  found: { evalRuns: string[]; triggerRuns: string[] },
): Promise<ShardData["finished"]> {
  const evalRuns = found.evalRuns.filter(
    (r) => runNumber(r) <= (iteration?.plan.runs_per_configuration ?? 0),
  );
  const triggerRuns = found.triggerRuns.filter((r) => runNumber(r) <= (triggerPlan?.runs_per_query ?? 0));
  const count = async (runs: string[], file: (run: string) => string) =>
    (await Promise.all(runs.map((r) => ended(file(r))))).filter(Boolean).length;
  return {
    evalRuns:
      iteration?.status === "complete"
        ? evalRuns.length
        : await count(evalRuns, (r) => runPaths(join(dir, r)).timing),
    triggerRuns:
      triggerPlan?.status === "complete"
        ? triggerRuns.length
        : await count(triggerRuns, (r) => join(dir, TRIGGERS_DIR, r, "trigger.json")),
  };
}

/** Reads a shard folder; a folder no `--shard` run wrote is refused, naming it. */
export async function readShard(source: string): Promise<ShardData> {
  const dir = await shardIterationDir(source);
  const iteration = await read(join(dir, ITERATION_FILE), IterationRecord);
  const triggerPlan = await read(join(dir, TRIGGERS_DIR, "plan.json"), TriggerPlan);
  const triggerResults = await read(join(dir, TRIGGERS_DIR, "trigger-results.json"), TriggerResults);
  if (iteration && !iteration.shard)
    throw new SkillgymError(
      "BAD_INPUT",
      `${source}: ${join(dir, ITERATION_FILE)} has no shard; it is not a shard`,
      {
        hint: "merge takes the folders of runs made with --shard i/n",
      },
    );
  if (triggerPlan && !triggerPlan.shard)
    throw new SkillgymError(
      "BAD_INPUT",
      `${source}: ${join(dir, TRIGGERS_DIR, "plan.json")} has no shard; it is not a shard`,
      {
        hint: "merge takes the folders of runs made with --shard i/n",
      },
    );
  if (!iteration && !triggerPlan)
    throw new SkillgymError(
      "BAD_INPUT",
      `${source}: ${dir} has neither iteration.json nor triggers/plan.json`,
    );
  const evalRuns = iteration ? (await listRuns(dir)).map((r) => r.id) : [];
  const triggerRuns = triggerPlan ? await triggerRunFolders(join(dir, TRIGGERS_DIR)) : [];
  return {
    source,
    dir,
    ...(iteration ? { iteration: iteration as IterationRecord & { shard: ShardInfo } } : {}),
    ...(triggerPlan ? { triggerPlan: triggerPlan as TriggerPlan & { shard: ShardInfo } } : {}),
    ...(triggerResults ? { triggerResults } : {}),
    evalRuns,
    triggerRuns,
    finished: await finishedRuns(dir, iteration, triggerPlan, { evalRuns, triggerRuns }),
  };
}
