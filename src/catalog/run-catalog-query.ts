import { relative } from "node:path";
import { writeActivation } from "../activation/index.js";
import type { Agent } from "../agents/agent.js";
import type { AgentEvent } from "../agents/events.js";
import { skillLoadOf } from "../agents/registry.js";
import type { CatalogRun } from "../contracts/catalog.js";
import { type AttemptEnv, type AttemptPlan, runAttempt } from "../run/attempt.js";
import type { RetryPolicy } from "../run/retry.js";
import { writeJson } from "../runlog/atomic-write.js";
import type { Companion, ContextCondition, ProjectCondition } from "../triggers/index.js";
import { triggerRunCost } from "../triggers/run-cost.js";
import type { CatalogMember } from "./discover.js";
import { NONE } from "./matrix.js";
import type { CatalogRunSpec } from "./plan.js";

export interface CatalogContext {
  agent: Agent;
  members: readonly CatalogMember[];
  /** Each skill's relative file list, read once. */
  bundledFiles: Map<string, string[]>;
  catalogDir: string;
  /** `--installed`: outside skills installed beside the library under their own names, as rivals. */
  installed?: readonly Companion[];
  /** `--project-root`: each run's workspace starts as a copy of the project's snapshot. */
  project?: ProjectCondition;
  /** `--context`: each run continues this prior conversation. */
  context?: ContextCondition;
  model?: string;
  timeoutMs: number;
  tempRoot: string;
  retry: RetryPolicy;
  signal?: AbortSignal;
}

/** The catalog skills that loaded, in order, by their own names. */
export function catalogLoads(
  events: readonly AgentEvent[],
  realNames: ReadonlyMap<string, string>,
): string[] {
  const loaded: string[] = [];
  for (const event of events) {
    const skill = skillLoadOf(event);
    const real = skill === undefined ? undefined : realNames.get(skill);
    if (real !== undefined && !loaded.includes(real)) loaded.push(real);
  }
  return loaded;
}

/** One catalog run: every skill installed under this run's names, the query asked, the first skill to load kept. */
export function executeCatalogRun(spec: CatalogRunSpec, ctx: CatalogContext): Promise<CatalogRun> {
  const rivals = ctx.installed ?? [];
  // A rival that loads first took the query: it is attributed by its own name, as a library skill is.
  const realNames = new Map([
    ...Object.entries(spec.installNames).map(([real, install]) => [install, real] as const),
    ...rivals.map((r) => [r.installName, r.installName] as const),
  ]);
  const plan: AttemptPlan = {
    name: `${spec.owner}-q${spec.queryIndex + 1}-r${spec.runNumber}`,
    runNumber: spec.runNumber,
    runDir: spec.runDir,
    workspace: (dir) => ({
      dir,
      ...(ctx.project ? { projectRoot: ctx.project.snapshot } : {}),
      skills: [
        ...ctx.members.map((m) => ({ sourceDir: m.dir, installName: spec.installNames[m.name]! })),
        ...rivals,
      ],
      skillsFolder: ctx.agent.skillsFolder,
      fixtures: [],
      rewriteSkillName: true,
    }),
    prompt: spec.query,
    ...(ctx.context ? { history: ctx.context.turns } : {}),
    timeoutMs: ctx.timeoutMs,
    heading: `Catalog: ${spec.owner} query ${spec.queryIndex + 1}, run ${spec.runNumber}`,
    streamUsage: true,
    eventLog: true,
    // The first catalog skill to load answers the question; the rest of the run would only cost.
    onEvent: (event) => (catalogLoads([event], realNames).length > 0 ? "stop" : undefined),
  };
  const env: AttemptEnv = {
    agent: ctx.agent,
    ...(ctx.model ? { model: ctx.model } : {}),
    tempRoot: ctx.tempRoot,
    retry: ctx.retry,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
  return runAttempt(plan, env, async ({ outcome, result, setupError }) => {
    const events = result?.events ?? [];
    const loaded = catalogLoads(events, realNames);
    const scored = outcome === "success" || outcome === "stopped";
    const error = setupError ?? (scored ? undefined : (result?.message ?? outcome));
    const owner = ctx.members.find((m) => m.name === spec.owner)!;
    await writeActivation(
      spec.runDir,
      events,
      {
        skill: spec.owner,
        skillDir: owner.dir,
        configuration: "catalog",
        agent: ctx.agent.name,
        staged: Object.fromEntries(realNames),
        ...(result?.sandbox ? { sandbox: result.sandbox } : {}),
      },
      // A skill the map lacks has its files read by writeActivation itself.
      ctx.bundledFiles.get(spec.owner),
    );
    const { cost_source: _, ...cost } = triggerRunCost(result, {
      simulated: ctx.agent.simulated,
      ...(ctx.model ? { model: ctx.model } : {}),
    });
    const run: CatalogRun = {
      owner: spec.owner,
      query: spec.query,
      should_trigger: spec.shouldTrigger,
      run_number: spec.runNumber,
      fired: loaded[0] ?? NONE,
      loaded,
      outcome,
      ...(error !== undefined ? { error } : {}),
      dir: relative(ctx.catalogDir, spec.runDir).replaceAll("\\", "/"),
      ...cost,
    };
    await writeJson(`${spec.runDir}/catalog-run.json`, { ...run, install_names: spec.installNames });
    return run;
  });
}
