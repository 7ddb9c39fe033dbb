import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { TriggerQuery } from "../contracts/evals.js";

/** One agent run of one trigger query. */
export interface TriggerRunSpec {
  queryIndex: number;
  query: string;
  shouldTrigger: boolean;
  runNumber: number;
  /** The unique name the skill under test is installed under for this run alone. */
  syntheticName: string;
  /** `triggers/query-<i>/run-<k>/` */
  runDir: string;
}

// A unique, spec-valid skill name (<= 64 chars of [a-z0-9-]) so parallel runs can never see each other's copy.
export function syntheticName(skillName: string, unique: string = randomBytes(4).toString("hex")): string {
  const stem = skillName.slice(0, 64 - unique.length - 4).replace(/-+$/, "");
  return `${stem}-sg-${unique}`;
}

export function planTriggerRuns(
  queries: readonly TriggerQuery[],
  runs: number,
  triggersDir: string,
  skillName: string,
): TriggerRunSpec[] {
  const specs: TriggerRunSpec[] = [];
  for (let runNumber = 1; runNumber <= runs; runNumber++) {
    queries.forEach((q, queryIndex) => {
      specs.push({
        queryIndex,
        query: q.query,
        shouldTrigger: q.should_trigger,
        runNumber,
        syntheticName: syntheticName(skillName),
        runDir: join(triggersDir, `query-${queryIndex + 1}`, `run-${runNumber}`),
      });
    });
  }
  return specs;
}
