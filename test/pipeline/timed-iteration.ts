import { iterationRecord } from "../bench/iteration-fixture.js";
import { writeTree } from "../e2e/helpers.js";

// The four runs of eval 1, in the order their timing.json files are given.
const RUNS = ["with_skill/run-1", "without_skill/run-1", "with_skill/run-2", "without_skill/run-2"];

/**
 * `<dir>/ws/iteration-<n>`: eval 1 run twice with and without the skill, its iteration.json and each run's
 * timing.json (`timings`, in the order with_skill/run-1, without_skill/run-1, with_skill/run-2, without_skill/run-2).
 */
export async function timedIteration(
  dir: string,
  n: number,
  simulated: boolean,
  timings: readonly Record<string, unknown>[],
): Promise<void> {
  const folder = `ws/iteration-${n}`;
  await writeTree(dir, {
    [`${folder}/iteration.json`]: JSON.stringify(
      iterationRecord({
        simulated,
        plan: { evals: [1], configurations: ["with_skill", "without_skill"], runs_per_configuration: 2 },
      }),
    ),
    ...Object.fromEntries(
      timings.map((timing, i) => [`${folder}/eval-1/${RUNS[i]}/timing.json`, JSON.stringify(timing)]),
    ),
  });
}
