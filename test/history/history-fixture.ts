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
  const runs: FixtureRun[] = [1, 2].flatMap((id, i) =>
    [1, 2].flatMap((run): FixtureRun[] => [
      { eval: id, configuration: "with_skill", run, results: { "file exists": outcome.withSkill[i]! } },
      {
        eval: id,
        configuration: "without_skill",
        run,
        results: { "file exists": outcome.baseline ?? false },
      },
    ]),
  );
  await writeIteration(dir, {
    record: iterationRecord({
      ...(outcome.model === null ? {} : { model: outcome.model ?? "old" }),
      agent: { name: "claude-code", version: "2.0.1" },
    }),
    evals: [{ id: 1 }, { id: 2 }],
    runs,
  });
  await writeBenchmark(dir);
  return dir;
}
