import { join } from "node:path";
import { writeBenchmark } from "../../src/bench/index.js";
import { type FixtureRun, iterationRecord, writeIteration } from "../bench/iteration-fixture.js";

export interface Outcome {
  /** Per eval (1 and 2): whether both runs with the skill pass. */
  withSkill: [boolean, boolean];
  /** Whether the baseline passes; it fails unless told. */
  baseline?: boolean;
  /** The model asked for; null: none asked, and timing.json names none either. */
  model?: string | null;
  /** The model each run's timing.json names, so benchmark.json's executor_model; none unless told. */
  ran?: string;
  /** null: iteration.json names no agent, as those written before it did; else Claude Code 2.0.1. */
  agent?: null;
  /** The effect floor benchmark.json's verdict is held against; the default unless told. */
  effectFloor?: number;
}

export const pass: [boolean, boolean] = [true, true];
export const fail: [boolean, boolean] = [false, false];

/**
 * `<workspace>/<folder>`: evals 1 and 2, two runs a configuration, one check each, and the benchmark.json the real
 * benchmark code writes for them.
 */
export async function writeScoredIteration(
  workspace: string,
  folder: string,
  outcome: Outcome,
): Promise<string> {
  const dir = join(workspace, folder);
  const ran = outcome.ran ? { model: outcome.ran } : {};
  const runs: FixtureRun[] = [1, 2].flatMap((id, i) =>
    [1, 2].flatMap((run): FixtureRun[] => [
      {
        eval: id,
        configuration: "with_skill",
        run,
        results: { "file exists": outcome.withSkill[i]! },
        ...ran,
      },
      {
        eval: id,
        configuration: "without_skill",
        run,
        results: { "file exists": outcome.baseline ?? false },
        ...ran,
      },
    ]),
  );
  await writeIteration(dir, {
    record: iterationRecord({
      ...(outcome.model === null ? {} : { model: outcome.model ?? "old" }),
      ...(outcome.agent === null ? {} : { agent: { name: "claude-code", version: "2.0.1" } }),
    }),
    evals: [{ id: 1 }, { id: 2 }],
    runs,
  });
  await writeBenchmark(dir, outcome.effectFloor === undefined ? {} : { effectFloor: outcome.effectFloor });
  return dir;
}
