import { rm } from "node:fs/promises";
import type { Agent } from "../agents/agent.js";
import { type ExpectationGrader, gradeIteration, gradeOnFinish } from "../grade/index.js";
import type { Budget } from "../run/budget.js";
import { type RunReporter, runEvals } from "../run/index.js";
import type { StoreRequest } from "../run/options.js";
import type { RetryPolicy } from "../run/retry.js";
import type { OutputLimits } from "../workspace/index.js";
import { type MeasuredRuns, measureRuns } from "./measure-runs.js";

export interface ExecuteSkillInput {
  /** The measured version (a snapshot folder named after the skill). */
  skillDir: string;
  evalsPath: string;
  /** Where the eval iteration is written: `<workspace>/iteration-1/`. */
  workspace: string;
  runs: number;
  concurrency: number;
  timeoutSeconds: number;
  outputLimits?: Partial<OutputLimits>;
  model?: string;
  retry?: RetryPolicy;
  signal?: AbortSignal;
  reporter?: RunReporter;
  budget?: Budget;
  /** The result store shared by every round (its folder settled, not the round's own workspace). */
  store?: StoreRequest & { dir: string };
  createAgent: () => Promise<Agent>;
  createGrader: () => Promise<ExpectationGrader>;
  onGradingError?: (runDir: string, error: unknown) => void;
}

export type ExecuteSkillResult =
  | {
      status: "done";
      iterationDir: string;
      measured: MeasuredRuns & { passRate: number };
      costUsd: number;
      attempts: number;
    }
  | { status: "failed"; iterationDir: string; error: string; costUsd: number; attempts: number }
  | { status: "cancelled"; costUsd: number }
  | { status: "budget"; costUsd: number };

/**
 * Runs a skill's eval suite (with_skill only) and grades it. A resumed iteration continues in place; runs that ended
 * ungraded are graded now. When no run could be graded the suite is run once more from scratch (the seed's retry).
 */
export async function executeSkill(input: ExecuteSkillInput): Promise<ExecuteSkillResult> {
  let costUsd = 0;
  // Stryker disable next-line StringLiteral: equivalent, every attempt that does not return sets it
  let last = { iterationDir: input.workspace, error: "" };
  for (let attempt = 1; attempt <= 2; attempt++) {
    const summary = await runEvals({
      skillPath: input.skillDir,
      evalsPath: input.evalsPath,
      workspace: input.workspace,
      runs: input.runs,
      baseline: "none",
      concurrency: input.concurrency,
      timeoutSeconds: input.timeoutSeconds,
      ...(input.outputLimits ? { outputLimits: input.outputLimits } : {}),
      resume: true,
      ...(input.model ? { model: input.model } : {}),
      ...(input.retry ? { retry: input.retry } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.reporter ? { reporter: input.reporter } : {}),
      ...(input.budget ? { budget: input.budget } : {}),
      ...(input.store ? { store: input.store } : {}),
      createAgent: () => input.createAgent(),
      afterRun: gradeOnFinish({
        createGrader: input.createGrader,
        ...(input.signal ? { signal: input.signal } : {}),
        ...(input.onGradingError ? { onError: input.onGradingError } : {}),
        ...(input.reporter ? { reporter: input.reporter } : {}),
      }),
    });
    costUsd += summary.records.reduce((sum, r) => sum + r.costUsd + (r.judgeCostUsd ?? 0), 0);
    if (summary.cancelled || input.signal?.aborted) return { status: "cancelled", costUsd };
    if (input.budget?.exhausted) return { status: "budget", costUsd };
    const leftover = await gradeIteration({
      iterationDir: summary.iterationDir,
      createGrader: input.createGrader,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    costUsd += leftover.judgeCostUsd;
    if (input.signal?.aborted) return { status: "cancelled", costUsd };
    const measured = await measureRuns(summary.iterationDir);
    if (measured.passRate !== undefined)
      return {
        status: "done",
        iterationDir: summary.iterationDir,
        measured: { ...measured, passRate: measured.passRate },
        costUsd,
        attempts: attempt,
      };
    const why = [...measured.problems, ...leftover.errors.map((e) => `grading ${e.runDir}: ${e.error}`)];
    last = {
      iterationDir: summary.iterationDir,
      error: `no run was graded (${why.join("; ") || "no runs"})`,
    };
    // Stryker disable next-line BooleanLiteral: equivalent, runEvals has just written the folder
    if (attempt === 1) await rm(summary.iterationDir, { recursive: true, force: true });
  }
  return { status: "failed", ...last, costUsd, attempts: 2 };
}
