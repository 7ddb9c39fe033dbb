import { SimScript } from "../../src/contracts/sim-script.js";
import { createJudge } from "../../src/judge/create.js";
import { startSim } from "../../src/sim/index.js";
import { runTune, type TuneOptions, type TuneResult } from "../../src/tune/index.js";
import { createDoubleAgent } from "../agent-double/index.js";

export const fastRetry = { attempts: 2, baseDelayMs: 50, maxDelayMs: 100 };

/**
 * `skillgym tune`'s flags for one short tune of `skills` on a --scenario: one iteration of one run, written to
 * `workspace`; `more` adds the rest (--simulate and its script, or what a real tune needs).
 */
export function scenarioTuneFlags(skills: string, workspace: string, ...more: string[]): string[] {
  return [
    skills,
    "--scenario",
    "Please make a greeting card for Ada",
    "-y",
    "--max-iterations",
    "1",
    "--runs",
    "1",
    "--workspace",
    workspace,
    ...more,
  ];
}

export function skillMd(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
}

/** Runs a tune with the claude-code adapter driving the test double against an in-process simulator running `script`. */
export async function tuneWithSim(
  script: unknown,
  options: Omit<TuneOptions, "createAgent" | "createJudge" | "runs" | "concurrency" | "timeoutSeconds"> &
    Partial<Pick<TuneOptions, "runs" | "concurrency" | "timeoutSeconds">>,
): Promise<TuneResult> {
  const sim = await startSim({ script: SimScript.parse(script) });
  try {
    return await runTune({
      runs: 1,
      concurrency: 2,
      timeoutSeconds: 60,
      retry: fastRetry,
      ...options,
      createAgent: () => createDoubleAgent({ simulatorUrl: sim.url }),
      createJudge: () => createJudge({ backend: "sim", simulatorUrl: sim.url }),
    });
  } finally {
    await sim.close();
  }
}
