import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { z } from "zod";
import { IterationRecord, TriggerPlan } from "../contracts/run-record.js";
import type { ShardInfo } from "../contracts/shard.js";
import { TriggerResults } from "../contracts/trigger-results.js";
import { SkillgymError } from "../errors.js";
import { ITERATION_FILE, iterationDirName, TRIGGERS_DIR } from "../runlog/layout.js";
import { iterationNumbers, listRuns } from "../runlog/list-runs.js";
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

async function triggerRunFolders(triggersDir: string): Promise<string[]> {
  const found: string[] = [];
  const queries = (await readdir(triggersDir).catch(() => [])).filter((n) => /^query-\d+$/.test(n));
  for (const query of queries) {
    for (const run of await readdir(join(triggersDir, query)).catch(() => [])) {
      if (/^run-\d+$/.test(run)) found.push(`${query}/${run}`);
    }
  }
  return found.sort();
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
  return {
    source,
    dir,
    ...(iteration ? { iteration: iteration as IterationRecord & { shard: ShardInfo } } : {}),
    ...(triggerPlan ? { triggerPlan: triggerPlan as TriggerPlan & { shard: ShardInfo } } : {}),
    ...(triggerResults ? { triggerResults } : {}),
    evalRuns,
    triggerRuns: triggerPlan ? await triggerRunFolders(join(dir, TRIGGERS_DIR)) : [],
  };
}
