import { mkdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { TriggerPlan } from "../contracts/run-record.js";
import type { RateLimits } from "../contracts/shard.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { SkillgymError } from "../errors.js";
import { adaptiveLimit, rateLimitRecord } from "../run/adaptive-limit.js";
import { createNextIteration, defaultWorkspace } from "../run/iteration.js";
import { type RunInputs, runInputs, storeSettings } from "../run/options.js";
import { defaultRetry } from "../run/retry.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { iterationDirName, TRIGGERS_DIR } from "../runlog/layout.js";
import { iterationNumbers } from "../runlog/list-runs.js";
import { planHash } from "../shard/index.js";
import { hashSkill } from "../skill/index.js";
import { createTempRoot } from "../workspace/temp-root.js";
import {
  conditionsRecord,
  loadConditionSkills,
  type ProjectCondition,
  projectSnapshotDir,
  snapshotProject,
} from "./conditions.js";
import { loadContext } from "./context.js";
import { checkContextFits } from "./context-support.js";
import { skillWithDescription } from "./description.js";
import { screenRefused } from "./replay/index.js";
import type { TriggerContext, TriggerRunRecord } from "./run-trigger.js";
import { CLEAN_DIR, cleanContext, runTriggerSet, triggerRunIdentity } from "./run-trigger-set.js";
import { summarize } from "./score.js";
import { checkConditionSets, sideBySide } from "./side-by-side.js";
import { withSuiteConditions } from "./suite-options.js";
import type { TriggerOptions } from "./trigger-options.js";

export type { TriggerOptions };

export interface TriggerSummaryResult {
  iterationDir: string;
  resultsFile: string;
  results: TriggerResults;
  records: TriggerRunRecord[];
  cancelled: boolean;
  simulated: boolean;
  /** When 429s lowered the concurrency: how often, and how low. */
  rateLimits?: RateLimits;
}

async function triggersIteration(
  workspace: string,
  plan: TriggerPlan,
): Promise<{ dir: string; resumed: boolean }> {
  const latest = (await iterationNumbers(workspace)).at(-1);
  if (latest !== undefined) {
    const dir = join(workspace, iterationDirName(latest));
    const earlier = TriggerPlan.safeParse(await readJsonIfPresent(join(dir, TRIGGERS_DIR, "plan.json")));
    // Stryker disable next-line StringLiteral: equivalent, both plans get the same status before they are compared
    const same = (p: TriggerPlan) => JSON.stringify({ ...p, status: "" });
    if (earlier.success && earlier.data.status !== "complete" && same(earlier.data) === same(plan))
      return { dir, resumed: true };
  }
  return { dir: (await createNextIteration(workspace)).dir, resumed: false };
}

export { triggerRunIdentity };

/**
 * The project trigger runs start in (`--project-root`), snapshot into `tempRoot`. The copy leaves out the skill, the
 * suite (the agent must not read the expectations) and skillgym's own workspace and store, as an eval run's copy does.
 */
export async function projectCondition(
  options: Pick<TriggerOptions, "project" | "store">,
  inputs: RunInputs & { workspace: string },
  tempRoot: string,
): Promise<ProjectCondition | undefined> {
  if (!options.project) return undefined;
  const { skill, suite, workspace } = inputs;
  const store = options.store ? storeSettings(options.store, workspace).dir : undefined;
  // The trigger file too: a suite at the project's root leaves out no folder.
  const leaveOut = [skill.dir, suite.dir, suite.triggersFile, workspace, store].filter(
    (path): path is string => path !== undefined,
  );
  return snapshotProject(options.project, leaveOut, projectSnapshotDir(tempRoot));
}

/** Runs every trigger query `runs` times, each run in its own workspace, and writes trigger-results.json. */
export async function runTriggers(given: TriggerOptions): Promise<TriggerSummaryResult> {
  const { skill, suite } = await runInputs(given, "triggers");
  // The suite's "conditions" fill in what the command line left out.
  const options = await withSuiteConditions(given, suite);
  if (suite.triggers.length === 0)
    throw new SkillgymError("NO_EVALS", `${suite.triggersFile} has no queries`);
  const workspace = resolve(options.workspace ?? defaultWorkspace(skill.dir, skill.name));
  // The skills are checked before anything is made, so a bad folder is a usage error with nothing left behind.
  const sets = options.conditions ?? { clean: false, real: true };
  if (options.conditions) checkConditionSets(options.conditions, options);
  if (sets.clean && sets.real && options.shard)
    throw new SkillgymError("USAGE", "--conditions clean,real cannot be split with --shard", {
      hint: "run each condition in its own sharded job (--conditions clean, --conditions real)",
    });
  const { companions, installed } = await loadConditionSkills(options, skill.name);
  const context = options.context && sets.real ? await loadContext(options.context) : undefined;
  const tempRoot = await createTempRoot("triggers");
  try {
    // The clean room alone (`--conditions clean`) needs no copy of the project.
    const project = sets.real
      ? await projectCondition(options, { skill, suite, workspace }, tempRoot)
      : undefined;
    const description = options.description ?? skill.description;
    const skillSourceDir = options.description
      ? await skillWithDescription(skill, options.description, join(tempRoot, "skill"))
      : skill.dir;
    // A shard sees only some runs of a query, so it cannot tell when a verdict settles: every run is made.
    const allRuns = options.allRuns === true || options.shard !== undefined;
    const agent = await options.createAgent({ skill, suite });
    if (context) checkContextFits(agent, context);
    if (options.screen) screenRefused(agent);
    const plan: TriggerPlan = {
      skill_name: skill.name,
      skill_hash: await hashSkill(skill.dir),
      description,
      queries: suite.triggers.map((t) => t.query),
      runs_per_query: options.runs,
      with_skills: companions.map((c) => c.sourceDir),
      ...(options.installed?.length ? { installed: options.installed.map((d) => resolve(d)) } : {}),
      ...(project ? { project_root: project.root, project_hash: project.hash } : {}),
      ...(context ? { context: context.file, context_hash: context.hash } : {}),
      ...(sets.clean && sets.real ? { side_by_side: ["clean", "real"] } : {}),
      ...(sets.clean && !sets.real ? { conditions: ["clean"] } : {}),
      all_runs: allRuns,
      status: "running",
      ...(options.shard
        ? {
            shard: {
              ...options.shard,
              plan_hash: planHash({
                kind: "triggers",
                queries: suite.triggers,
                description,
                runs: options.runs,
                threshold: options.threshold,
                with_skills: await Promise.all(companions.map((c) => hashSkill(c.sourceDir))),
                ...(installed.length
                  ? { installed: await Promise.all(installed.map((c) => hashSkill(c.sourceDir))) }
                  : {}),
                ...(project ? { project: project.hash } : {}),
                ...(context ? { context: context.hash } : {}),
                agent: agent.name,
                model: options.model,
              }),
            },
          }
        : {}),
    };
    // In a given iteration (`run`'s), trigger runs of an earlier attempt are kept: that is a resume.
    const chosen = options.iterationDir
      ? {
          dir: resolve(options.iterationDir),
          resumed:
            (await readJsonIfPresent(join(resolve(options.iterationDir), "triggers", "plan.json"))) !==
            undefined,
        }
      : await triggersIteration(workspace, plan);
    const triggersDir = join(chosen.dir, TRIGGERS_DIR);
    await mkdir(triggersDir, { recursive: true });
    await writeJson(join(triggersDir, "plan.json"), plan);

    const limit = adaptiveLimit(options.concurrency);
    const realContext: TriggerContext = {
      agent,
      skillName: skill.name,
      skillSourceDir,
      companions,
      installed,
      ...(project ? { project } : {}),
      ...(context ? { context } : {}),
      ...(options.model ? { model: options.model } : {}),
      timeoutMs: options.timeoutSeconds * 1000,
      tempRoot,
      retry: { ...(options.retry ?? defaultRetry), observe: limit.observe },
      ...(options.signal ? { signal: options.signal } : {}),
      onRetry: (spec, info) => options.reporter?.onRunRetry?.(spec, info),
    };
    // Side by side, the clean room's runs come first, in `triggers/clean/`: no project, no library, no history.
    const set = (dir: string, context: TriggerContext, condition?: "clean" | "real") =>
      runTriggerSet({
        options,
        suite,
        skillName: skill.name,
        triggersDir: dir,
        iterationDir: chosen.dir,
        resumed: chosen.resumed,
        context,
        description,
        allRuns,
        limit,
        agentSimulated: agent.simulated,
        workspace,
        ...(condition ? { condition } : {}),
      });
    const clean =
      sets.clean && sets.real
        ? await set(join(triggersDir, CLEAN_DIR), cleanContext(realContext), "clean")
        : undefined;
    const stoppedEarly = clean?.cancelled === true;
    const real = stoppedEarly
      ? // Stryker disable next-line BooleanLiteral: equivalent, a stop before the real set cancels the run anyway
        { records: [] as TriggerRunRecord[], queryResults: [], cancelled: true }
      : await set(
          triggersDir,
          sets.real ? realContext : cleanContext(realContext),
          clean ? "real" : undefined,
        );
    const records = [...(clean?.records ?? []), ...real.records];
    const cancelled = stoppedEarly || real.cancelled;
    const queryResults = real.queryResults;
    const realResults: TriggerResults = {
      skill_name: skill.name,
      description,
      results: queryResults,
      summary: summarize(queryResults),
      threshold: options.threshold,
      runs_per_query: options.runs,
      all_runs: allRuns,
      simulated: agent.simulated,
      sandbox: agent.sandboxed === true,
      ...(options.model ? { model: options.model } : {}),
      ...(sets.real
        ? conditionsRecord(project, [...companions, ...installed], context)
        : conditionsRecord(undefined, companions)),
      agent: {
        name: agent.name,
        ...(agent.version ? { version: agent.version } : {}),
        ...(agent.mode ? { mode: agent.mode } : {}),
      },
      ...(real.screen ? { screen: real.screen } : {}),
    };
    if (clean && !cancelled) {
      const { conditions: _real, ...cleanRest } = realResults;
      const cleanResults: TriggerResults = {
        ...cleanRest,
        results: clean.queryResults,
        summary: summarize(clean.queryResults),
        ...conditionsRecord(undefined, companions),
        ...(clean.screen ? { screen: clean.screen } : {}),
      };
      await writeJson(join(triggersDir, CLEAN_DIR, "trigger-results.json"), cleanResults);
    }
    const results =
      clean && !cancelled
        ? sideBySide({ results: clean.queryResults, summary: summarize(clean.queryResults) }, realResults)
        : realResults;
    const resultsFile = join(triggersDir, "trigger-results.json");
    if (!cancelled) await writeJson(resultsFile, results);
    const { rate_limits: rateLimits } = rateLimitRecord(limit);
    await writeJson(join(triggersDir, "plan.json"), {
      ...plan,
      status: cancelled ? "interrupted" : "complete",
      ...(rateLimits ? { rate_limits: rateLimits } : {}),
    });
    return {
      iterationDir: chosen.dir,
      resultsFile,
      results,
      records,
      cancelled,
      simulated: agent.simulated,
      ...(rateLimits ? { rateLimits } : {}),
    };
  } finally {
    await rm(tempRoot, { recursive: true, force: true });
  }
}
