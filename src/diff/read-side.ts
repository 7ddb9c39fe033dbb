import { join, resolve } from "node:path";
import { evalKey, isGraded } from "../bench/model.js";
import { readIteration } from "../bench/read-iteration.js";
import { AgentsIterationRecord } from "../contracts/matrix.js";
import { TriggerResults } from "../contracts/trigger-results.js";
import { SkillgymError } from "../errors.js";
import { isFile } from "../fs-probe.js";
import { agentIterationDir, ITERATION_FILE, TRIGGERS_DIR } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import type { EvalRates } from "./compare-evals.js";

/** What `diff` compares of one iteration (or one agent's part of it). */
export interface Side {
  dir: string;
  evals: EvalRates[];
  triggers?: TriggerResults;
}

async function readSide(dir: string): Promise<Side> {
  const triggersFile = join(dir, TRIGGERS_DIR, "trigger-results.json");
  const triggers = (await isFile(triggersFile))
    ? await readRecordIfValid(triggersFile, TriggerResults)
    : undefined;
  // An iteration of trigger runs only has no eval folders to read.
  const data = await readIteration(dir).catch((error: unknown) => {
    if (triggers) return undefined;
    throw error;
  });
  const runs = data?.runs ?? [];
  const evals = (data?.evals ?? []).map(
    (e): EvalRates => ({
      id: e.id,
      name: e.name,
      rates: runs
        .filter((r) => evalKey(r.evalId) === evalKey(e.id) && r.configuration === "with_skill")
        .filter(isGraded)
        .map((r) => r.grading.summary.pass_rate),
    }),
  );
  return { dir, evals, ...(triggers ? { triggers } : {}) };
}

/** The agents of an iteration that ran several (`run --agent a,b`); undefined for an ordinary iteration. */
async function agentsOf(dir: string): Promise<string[] | undefined> {
  const record = await readRecordIfValid(join(dir, ITERATION_FILE), AgentsIterationRecord);
  return record?.agents;
}

export interface SidePair {
  agent?: string;
  a: Side;
  b: Side;
}

/**
 * The two iterations as pairs of sides: one pair for ordinary iterations, one per agent both ran for iterations of
 * several agents. Iterations of different shapes, or with no agent in common, are a usage error naming both.
 */
export async function readSides(aDir: string, bDir: string): Promise<SidePair[]> {
  const a = resolve(aDir);
  const b = resolve(bDir);
  const [aAgents, bAgents] = await Promise.all([agentsOf(a), agentsOf(b)]);
  if (!aAgents && !bAgents) return [{ a: await readSide(a), b: await readSide(b) }];
  if (!aAgents || !bAgents) {
    const several = aAgents ? a : b;
    throw new SkillgymError("USAGE", `${several} ran several agents and the other iteration one`, {
      hint: `compare one agent's folder with the other iteration, e.g. ${agentIterationDir(several, (aAgents ?? bAgents)![0]!)}`,
      file: several,
    });
  }
  const common = aAgents.filter((agent) => bAgents.includes(agent));
  if (common.length === 0)
    throw new SkillgymError("USAGE", `${a} and ${b} ran no agent in common`, {
      hint: `${a} ran ${aAgents.join(", ")}; ${b} ran ${bAgents.join(", ")}`,
      file: b,
    });
  const pairs: SidePair[] = [];
  for (const agent of common)
    pairs.push({
      agent,
      a: await readSide(agentIterationDir(a, agent)),
      b: await readSide(agentIterationDir(b, agent)),
    });
  return pairs;
}
