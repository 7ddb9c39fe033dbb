import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { readEventLog } from "../agents/event-log.js";
import type { AgentEvent } from "../agents/events.js";
import { defaultAgentName, parseStoredTranscript } from "../agents/registry.js";
import { RunStatus } from "../contracts/run-record.js";
import { SkillgymError } from "../errors.js";
import { readIterationRecord } from "../run/iteration.js";
import { loadInputs } from "../run/load-inputs.js";
import { runPool } from "../run/pool.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { evalDirName, runDir, runPaths } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { locateBwrap } from "../sandbox/index.js";
import type { Suite } from "../suite/model.js";
import { createTempRoot } from "../workspace/temp-root.js";
import { type ExpectationGrader, gradeRun } from "./grade-run.js";
import { rebuildWorkspace } from "./rebuild.js";

export interface GradeIterationOptions {
  iterationDir: string;
  /** Re-grade runs that already have a grading.json. */
  force?: boolean;
  concurrency?: number;
  commandTimeoutMs?: number;
  /** Made only if some run has expectations to judge; given the suite (an agent judge gets its `env`). */
  createGrader?: (suite: Suite) => Promise<ExpectationGrader>;
  signal?: AbortSignal;
  onRunGraded?: (info: { runDir: string; passRate?: number; error?: string; skipped?: boolean }) => void;
}

export interface GradeIterationResult {
  graded: number;
  skipped: number;
  errors: { runDir: string; error: string }[];
  judgeCostUsd: number;
}

/** A run's normalised events: its events.jsonl, else (a run folder older than it) its raw transcript read by its agent. */
export async function readEvents(
  runDir: string,
  agentName: string = defaultAgentName,
): Promise<AgentEvent[]> {
  const logged = await readEventLog(runPaths(runDir).events);
  if (logged) return logged;
  // No transcript is an empty one: no events.
  let text = "";
  try {
    text = await readFile(join(runDir, "transcript.jsonl"), "utf8");
  } catch {}
  return parseStoredTranscript(agentName, text);
}

/** Grades (or re-grades) every finished run of an iteration without running any agent again. */
export async function gradeIteration(options: GradeIterationOptions): Promise<GradeIterationResult> {
  const record = await readIterationRecord(options.iterationDir);
  if (!record) {
    throw new SkillgymError(
      "BAD_INPUT",
      `${options.iterationDir} is not an iteration folder (no iteration.json)`,
      {
        hint: "pass a folder such as my-skill-workspace/iteration-1 written by `skillgym eval`",
      },
    );
  }
  const { skill, suite } = await loadInputs({
    skillPath: record.skill_path,
    ...(record.evals_path ? { evalsPath: record.evals_path } : {}),
    ...(record.project_root ? { projectRoot: record.project_root } : {}),
    need: "evals",
  });
  const jobs = suite.evals
    .filter((e) => record.plan.evals.map(String).includes(String(e.id)))
    .flatMap((e) =>
      record.plan.configurations.flatMap((configuration) =>
        Array.from({ length: record.plan.runs_per_configuration }, (_, k) => ({
          eval: e,
          configuration,
          runDir: runDir(options.iterationDir, e.id, configuration, k + 1),
        })),
      ),
    );
  // A sandboxed iteration's checks run sandboxed again: no bubblewrap stops here, before any run is graded (exit 3).
  const needsSandbox =
    record.sandbox === true &&
    jobs.some((j) => j.eval.checks.some((c) => c.type === "command" && c.sandbox !== false));
  const sandbox = needsSandbox ? { bwrap: await locateBwrap() } : undefined;
  let grader: ExpectationGrader | undefined;
  const needsJudge = jobs.some((j) => j.eval.expectations.length > 0);
  if (needsJudge && options.createGrader) grader = await options.createGrader(suite);
  const result: GradeIterationResult = { graded: 0, skipped: 0, errors: [], judgeCostUsd: 0 };
  const tempRoot = await createTempRoot("grade");
  try {
    await runPool(
      jobs,
      options.concurrency ?? 4,
      async (job) => {
        const status = await readRecordIfValid(runPaths(job.runDir).timing, RunStatus);
        const finished = status?.outcome === "success";
        const graded = (await readJsonIfPresent(runPaths(job.runDir).grading)) !== undefined;
        if (!finished || (graded && !options.force)) {
          result.skipped++;
          options.onRunGraded?.({ runDir: job.runDir, skipped: true });
          return;
        }
        const workspaceDir = join(
          tempRoot,
          `${evalDirName(job.eval.id)}-${job.configuration}-${job.runDir.slice(-6).replace(/\W/g, "")}`,
        );
        try {
          const changes = await rebuildWorkspace(job.runDir, {
            dir: workspaceDir,
            configuration: job.configuration,
            eval: job.eval,
            skill: { dir: skill.dir, name: skill.name },
            ...(record.plan.baseline_skill_path ? { baselineSkillDir: record.plan.baseline_skill_path } : {}),
            ...(record.project_root ? { projectRoot: record.project_root } : {}),
            ...(suite.baseOverlay ? { baseOverlay: suite.baseOverlay } : {}),
            excludePaths: [skill.dir, suite.dir],
            skillsFolder: ".claude/skills",
          });
          const graded = await gradeRun({
            runDir: job.runDir,
            eval: job.eval,
            skillName: skill.name,
            workspaceDir,
            events: await readEvents(job.runDir, record.agent?.name),
            changes,
            commandTimeoutMs: options.commandTimeoutMs ?? 120_000,
            ...(suite.env ? { passEnv: suite.env } : {}),
            ...(sandbox ? { sandbox } : {}),
            ...(grader ? { grader } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
          });
          result.graded++;
          result.judgeCostUsd += graded.judgeCostUsd;
          options.onRunGraded?.({ runDir: job.runDir, passRate: graded.grading.summary.pass_rate });
        } catch (error) {
          // A grade cut short by Ctrl-C is left ungraded, not reported as a failure.
          if (options.signal?.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          result.errors.push({ runDir: job.runDir, error: message });
          options.onRunGraded?.({ runDir: job.runDir, error: message });
        } finally {
          await rm(workspaceDir, { recursive: true, force: true });
        }
      },
      options.signal,
    );
  } finally {
    // Stryker disable next-line BooleanLiteral: equivalent, the temp root always exists here
    await rm(tempRoot, { recursive: true, force: true });
  }
  return result;
}
