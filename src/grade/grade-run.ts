import type { AgentEvent } from "../agents/events.js";
import type { Check } from "../contracts/checks.js";
import type {
  Claim,
  EvalFeedback,
  GradedExpectation,
  Grading,
  UserNotesSummary,
} from "../contracts/grading.js";
import { Metrics } from "../contracts/metrics.js";
import { Timing } from "../contracts/timing.js";
import { SkillgymError } from "../errors.js";
import { type Redactor, redactJson } from "../redact.js";
import { writeJson } from "../runlog/atomic-write.js";
import { runPaths } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { type CheckSandbox, gradeChecks } from "./checks/index.js";
import { type JudgeInput, judgeInputOf } from "./judge-input.js";
import type { RunChanges } from "./rebuild.js";

export interface JudgeVerdicts {
  expectations: { text: string; passed: boolean; evidence: string }[];
  claims?: Claim[];
  user_notes_summary?: UserNotesSummary;
  eval_feedback?: EvalFeedback;
  model: string;
  /** The judge backend that answered, when the grader knows it. */
  backend?: string;
  costUsd: number;
  /** What the judge tried and was refused (a read-only agent judge's writes). */
  refused?: string[];
}

/** Grades the model-graded expectations of one run; backed by a judge (Claude Code, the API, a local model, sim). */
export type ExpectationGrader = (input: JudgeInput) => Promise<JudgeVerdicts>;

export interface GradeRunInput {
  runDir: string;
  eval: { prompt: string; expected_output?: string; expectations: string[]; checks: Check[] };
  skillName: string;
  workspaceDir: string;
  events: readonly AgentEvent[];
  changes: RunChanges;
  /** Checks run in the live workspace, so their evidence may quote a credential the agent wrote there. */
  redactor?: Redactor;
  commandTimeoutMs: number;
  /** Names of skillgym's variables the suite passes to `command` checks (evals.json `env`). */
  passEnv?: readonly string[];
  /** The run was sandboxed: its `command` checks run sandboxed too. */
  sandbox?: CheckSandbox;
  grader?: ExpectationGrader;
  signal?: AbortSignal;
}

export interface GradeRunResult {
  grading: Grading;
  judgeCostUsd: number;
  judgeModel?: string;
}

function summaryOf(expectations: readonly GradedExpectation[]): Grading["summary"] {
  const passed = expectations.filter((x) => x.passed).length;
  const total = expectations.length;
  return {
    passed,
    failed: total - passed,
    total,
    pass_rate: total === 0 ? 0 : Number((passed / total).toFixed(4)),
  };
}

/**
 * Grades one finished run: each `check` without a model, each expectation by the judge (burden of proof on PASS),
 * and writes grading.json (skill-creator's schema) with the run's metrics and timing.
 */
export async function gradeRun(input: GradeRunInput): Promise<GradeRunResult> {
  const started = new Date();
  const checked = await gradeChecks(input.eval.checks, {
    workspaceDir: input.workspaceDir,
    events: input.events,
    skillName: input.skillName,
    changes: input.changes,
    commandTimeoutMs: input.commandTimeoutMs,
    ...(input.passEnv ? { passEnv: input.passEnv } : {}),
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  let verdicts: JudgeVerdicts | undefined;
  if (input.eval.expectations.length > 0) {
    if (!input.grader) {
      throw new SkillgymError("USAGE", `${input.runDir}: expectations need a judge to grade them`, {
        hint: "choose one with --judge (claude-code, codex, gemini, opencode, copilot, anthropic, openai, sim)",
      });
    }
    verdicts = await input.grader(await judgeInputOf(input.runDir, input.eval));
  }
  // A grade cut short (a check or the judge cancelled) is not a verdict: the run stays ungraded, for resume.
  if (input.signal?.aborted)
    throw new SkillgymError("CANCELLED", `${input.runDir}: grading was cancelled`, {
      hint: "resume the iteration to grade it",
    });
  const ended = new Date();
  const judged: GradedExpectation[] = (verdicts?.expectations ?? []).map((x) => ({
    ...x,
    source: "judge" as const,
  }));
  const expectations = [...judged, ...checked];
  const metrics = await readRecordIfValid(runPaths(input.runDir).metrics, Metrics);
  const timing = await readRecordIfValid(runPaths(input.runDir).timing, Timing);
  const graderSeconds = (ended.getTime() - started.getTime()) / 1000;
  const executorSeconds = timing?.executor_duration_seconds ?? 0;
  const raw: Grading = {
    expectations,
    summary: summaryOf(expectations),
    ...(metrics ? { execution_metrics: metrics } : {}),
    timing: {
      ...(timing ?? {}),
      grader_start: started.toISOString(),
      grader_end: ended.toISOString(),
      grader_duration_seconds: graderSeconds,
      total_duration_seconds: Number((executorSeconds + graderSeconds).toFixed(3)),
    },
    claims: verdicts?.claims ?? [],
    user_notes_summary: verdicts?.user_notes_summary ?? {
      uncertainties: [],
      needs_review: [],
      workarounds: [],
    },
    ...(verdicts?.eval_feedback ? { eval_feedback: verdicts.eval_feedback } : {}),
    ...(verdicts
      ? {
          judge_model: verdicts.model,
          ...(verdicts.backend ? { judge_backend: verdicts.backend } : {}),
          judge_cost_usd: verdicts.costUsd,
          ...(verdicts.refused ? { judge_refused: verdicts.refused } : {}),
        }
      : {}),
  };
  const grading = input.redactor ? redactJson(input.redactor, raw) : raw;
  await writeJson(runPaths(input.runDir).grading, grading);
  return {
    grading,
    judgeCostUsd: verdicts?.costUsd ?? 0,
    ...(verdicts ? { judgeModel: verdicts.model } : {}),
  };
}
