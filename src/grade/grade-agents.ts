import { join, resolve } from "node:path";
import { AgentsIterationRecord } from "../contracts/matrix.js";
import { readIterationRecord } from "../run/iteration.js";
import { agentIterationDir, ITERATION_FILE } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import type { Suite } from "../suite/model.js";
import { type GradeIterationOptions, type GradeIterationResult, gradeIteration } from "./grade-iteration.js";
import type { ExpectationGrader } from "./grade-run.js";

export interface GradedPart {
  /** The agent whose folder this is, in an iteration that ran several; absent for an ordinary iteration. */
  agent?: string;
  iterationDir: string;
  result: GradeIterationResult;
}

/** Whether an iteration folder's runs were sandboxed (any agent's, for the root of several): its judge is then too. */
export async function iterationSandboxed(iterationDir: string): Promise<boolean> {
  const root = resolve(iterationDir);
  const several = await readRecordIfValid(join(root, ITERATION_FILE), AgentsIterationRecord);
  const dirs = several ? several.agents.map((agent) => agentIterationDir(root, agent)) : [root];
  for (const dir of dirs) if ((await readIterationRecord(dir))?.sandbox === true) return true;
  return false;
}

/**
 * `grade` on any iteration folder: an ordinary one is graded as it is; the root of one that ran several agents
 * (`run --agent a,b`) has each agent's iteration graded in turn, by one grader, in the order they ran.
 */
export async function gradeIterations(options: GradeIterationOptions): Promise<GradedPart[]> {
  const root = resolve(options.iterationDir);
  const several = await readRecordIfValid(join(root, ITERATION_FILE), AgentsIterationRecord);
  if (!several) return [{ iterationDir: options.iterationDir, result: await gradeIteration(options) }];
  let grader: Promise<ExpectationGrader> | undefined;
  const make = options.createGrader;
  const shared = make ? { createGrader: (suite: Suite) => (grader ??= make(suite)) } : {};
  const parts: GradedPart[] = [];
  for (const agent of several.agents) {
    if (options.signal?.aborted) break;
    const iterationDir = agentIterationDir(root, agent);
    parts.push({
      agent,
      iterationDir,
      result: await gradeIteration({ ...options, ...shared, iterationDir }),
    });
  }
  return parts;
}
