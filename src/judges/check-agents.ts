import { join, resolve } from "node:path";
import { AgentsIterationRecord } from "../contracts/matrix.js";
import { agentIterationDir, ITERATION_FILE } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { type CheckedJudges, type CheckJudgesOptions, checkJudges } from "./check-judges.js";

export interface CheckedPart {
  /** The agent whose folder this is, in an iteration that ran several; absent for an ordinary iteration. */
  agent?: string;
  checked: CheckedJudges;
}

/**
 * `judges` on any iteration folder: an ordinary one is checked as it is; the root of one that ran several agents
 * (`run --agent a,b`) has each agent's iteration checked in turn, each writing its own judges.json.
 */
export async function checkJudgesOfIterations(options: CheckJudgesOptions): Promise<CheckedPart[]> {
  const root = resolve(options.iterationDir);
  const several = await readRecordIfValid(join(root, ITERATION_FILE), AgentsIterationRecord);
  if (!several) return [{ checked: await checkJudges(options) }];
  const parts: CheckedPart[] = [];
  for (const agent of several.agents) {
    if (options.signal?.aborted) break;
    parts.push({
      agent,
      checked: await checkJudges({ ...options, iterationDir: agentIterationDir(root, agent) }),
    });
  }
  return parts;
}
