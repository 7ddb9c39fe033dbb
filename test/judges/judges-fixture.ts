import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { SimScript } from "../../src/contracts/sim-script.js";
import { iterationRecord, makeIteration, type TempIteration } from "../bench/iteration-fixture.js";

export const ALPHA = "alpha is stated";
export const BETA = "beta is listed";
export const GAMMA = "gamma is correct";
export const DELTA = "delta file exists";

/** The runs: eval 1 (three expectations) five times, eval 2 (one) twice; every original grade a PASS. */
export const RUNS = [
  { eval: 1, configuration: "with_skill", run: 1 },
  { eval: 1, configuration: "with_skill", run: 2 },
  { eval: 1, configuration: "with_skill", run: 3 },
  { eval: 1, configuration: "without_skill", run: 1 },
  { eval: 1, configuration: "without_skill", run: 2 },
  { eval: 2, configuration: "with_skill", run: 1 },
  { eval: 2, configuration: "with_skill", run: 2 },
] as const;

export const EXPECTATIONS: Record<number, string[]> = { 1: [ALPHA, BETA, GAMMA], 2: [DELTA] };

/**
 * The scripted truth: `strict` fails beta, `lenient` fails gamma, `wobbly` passes delta on a first ask and fails
 * it on the next; everything else passes for everyone.
 */
export const script: SimScript = {
  rules: [],
  judge: {
    default: "pass",
    verdicts: [
      { match: "beta", judge_model: "^strict$", passed: false, evidence: "strict: beta is not listed" },
      { match: "gamma", judge_model: "^lenient$", passed: false, evidence: "lenient: gamma is wrong" },
      { match: "delta", judge_model: "^wobbly$", passed: true, flips: true, evidence: "wobbly: maybe" },
    ],
  },
};

export const runId = (r: { eval: number; configuration: string; run: number }) =>
  `eval-${r.eval}-${r.configuration}-run-${r.run}`;

/** A simulated iteration of finished, graded runs, each with an output of its own. */
export async function judgedIteration(): Promise<TempIteration> {
  const made = await makeIteration({
    record: iterationRecord({
      simulated: true,
      plan: { evals: [1, 2], configurations: ["with_skill", "without_skill"], runs_per_configuration: 3 },
    }),
    evals: [
      { id: 1, assertions: EXPECTATIONS[1] },
      { id: 2, assertions: EXPECTATIONS[2] },
    ],
    runs: RUNS.map((r) => ({
      ...r,
      simulated: true,
      results: Object.fromEntries((EXPECTATIONS[r.eval] ?? []).map((text) => [text, true])),
    })),
  });
  for (const r of RUNS) {
    const dir = join(made.dir, `eval-${r.eval}`, r.configuration, `run-${r.run}`, "outputs");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "answer.md"), `answer of ${runId(r)}\n`);
  }
  return made;
}

/** The judged iteration and the sim script beside it, made once for a test file and removed after it. */
export function useJudgedIteration(): { readonly dir: string; readonly scriptFile: string } {
  let iteration: TempIteration | undefined;
  let scriptFile = "";
  beforeAll(async () => {
    iteration = await judgedIteration();
    scriptFile = join(iteration.dir, "..", "judges-script.json");
    await writeFile(scriptFile, JSON.stringify(script));
  });
  afterAll(() => iteration?.cleanup());
  return {
    get dir() {
      if (!iteration) throw new Error("the judged iteration is made in beforeAll");
      return iteration.dir;
    },
    get scriptFile() {
      return scriptFile;
    },
  };
}
