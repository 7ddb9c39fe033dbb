import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { costOf } from "../agents/pricing.js";
import type { CatalogRun } from "../contracts/catalog.js";
import { agentKeyParts } from "../run/reuse.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { type ResultStore, storeKey } from "../store/index.js";
import { conditionKeyParts, syntheticName } from "../triggers/index.js";
import type { ReplayAdapter } from "../triggers/replay/adapter.js";
import type { FirstTurn, FirstTurnVerdict } from "../triggers/replay/first-turn.js";
import {
  type DecidedVerdict,
  REPLAYS_PER_AGENT_SLOT,
  type ScreenOptions,
  type ScreenSummary,
  screenRuns,
} from "../triggers/replay/index.js";
import type { TriggerContext } from "../triggers/run-trigger.js";
import { NONE } from "./matrix.js";
import type { CatalogRunSpec } from "./plan.js";
import { CATALOG_RUN_FILE, libraryKeyPart } from "./reuse-catalog.js";
import type { CatalogContext } from "./run-catalog-query.js";

interface CatalogHooks {
  finishedEarlier(spec: CatalogRunSpec): Promise<CatalogRun | undefined>;
  run(spec: CatalogRunSpec): Promise<CatalogRun>;
}

export interface CatalogScreenInput {
  ctx: CatalogContext;
  hooks: CatalogHooks;
  screen: ScreenOptions;
  store?: ResultStore;
  concurrency: number;
  warn?: (message: string) => void;
}

/**
 * The key of a catalog's captured first request: what the agent puts in it besides the query. The agent, its
 * version and the model; every skill's name and description (all the listing shows); the skill it was captured as;
 * the conditions, as a catalog run's key has them. One capture serves every query of every skill of an unchanged
 * library.
 */
export async function catalogCaptureKey(ctx: CatalogContext): Promise<string> {
  return storeKey({
    kind: "replay-capture",
    scope: "catalog",
    ...(await agentKeyParts(ctx)),
    library: libraryKeyPart(ctx.members),
    // The capture is a run of the first skill (in folder order), read as that skill's: another first is another capture.
    captured: ctx.members[0]!.name,
    ...(await conditionKeyParts(ctx)),
  });
}

/**
 * The names the capture run installs the library's skills under but the first (whose name the capture picks and
 * keeps): derived from the key, so a capture served from the store is read with the names it was made with.
 */
function captureNames(ctx: CatalogContext, key: string): Map<string, string> {
  const unique = createHash("sha256").update(key).digest("hex").slice(0, 8);
  // Stryker disable next-line MethodExpression: equivalent, the first skill's extra name is never listed: the capture lists it under its own
  return new Map(ctx.members.slice(1).map((m) => [m.name, syntheticName(m.name, unique)]));
}

/** The capture run's context: a trigger run of the first skill with the rest of the library and the rivals beside it. */
function captureContext(ctx: CatalogContext, names: Map<string, string>): TriggerContext {
  const [first, ...rest] = ctx.members;
  return {
    agent: ctx.agent,
    skillName: first!.name,
    skillSourceDir: first!.dir,
    companions: rest.map((m) => ({ sourceDir: m.dir, installName: names.get(m.name)! })),
    installed: [...(ctx.installed ?? [])],
    ...(ctx.project ? { project: ctx.project } : {}),
    ...(ctx.context ? { context: ctx.context } : {}),
    ...(ctx.model ? { model: ctx.model } : {}),
    timeoutMs: ctx.timeoutMs,
    tempRoot: ctx.tempRoot,
    retry: ctx.retry,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
}

/**
 * Which way a first turn decides a catalog run: no call → no skill fired; every call loads a skill the catalog
 * knows (a library skill, a rival) → the first one fired (`stolen`, by the skills in the order they loaded); any
 * other call → undecided, the agent makes the run.
 */
export function classifyCatalogTurn(
  turn: FirstTurn,
  realNames: ReadonlyMap<string, string>,
  skillOf: ReplayAdapter["skillOf"],
): FirstTurnVerdict {
  if (turn.calls.length === 0) return { label: "not-triggered" };
  const loaded = turn.calls.map((call) => {
    const listed = skillOf(call);
    return listed === undefined ? undefined : realNames.get(listed);
  });
  if (loaded.some((s) => s === undefined)) return { label: "undecided" };
  return { label: "stolen", by: [...new Set(loaded as string[])] };
}

const firedBy = (verdict: DecidedVerdict) => (verdict.label === "stolen" ? verdict.by : []);

async function rewriteRecord(spec: CatalogRunSpec, run: CatalogRun): Promise<void> {
  const file = join(spec.runDir, CATALOG_RUN_FILE);
  const raw = ((await readJsonIfPresent(file)) ?? {}) as Record<string, unknown>;
  await writeJson(file, { ...run, ...(raw.install_names ? { install_names: raw.install_names } : {}) });
}

/**
 * The catalog scheduler's hooks with replay in front of the agent: one capture of the whole library's first request,
 * then each run sends it with its query; the first turn names the skill that fired, or leaves the run to the agent.
 */
export function catalogScreenedHooks(input: CatalogScreenInput) {
  const { ctx, hooks } = input;
  const key = catalogCaptureKey(ctx);
  const specs = new WeakMap<CatalogRun, CatalogRunSpec>();
  const kept = (spec: CatalogRunSpec, run: CatalogRun) => {
    specs.set(run, spec);
    return run;
  };
  let names: Map<string, string> | undefined;
  let screened: ReturnType<typeof screenRuns<CatalogRunSpec, CatalogRun>> | undefined;
  let opening: Promise<NonNullable<typeof screened>> | undefined;
  const ready = () => {
    opening ??= open();
    return opening;
  };
  const open = async () => {
    const k = await key;
    names = captureNames(ctx, k);
    screened = screenRuns<CatalogRunSpec, CatalogRun>(
      {
        ctx: captureContext(ctx, names),
        screen: input.screen,
        description: ctx.members[0]!.description,
        iterationDir: ctx.catalogDir,
        captureKey: k,
        concurrency: input.concurrency,
        ...(input.store ? { store: input.store } : {}),
        ...(input.warn ? { warn: input.warn } : {}),
      },
      {
        query: (spec) => spec.query,
        runNumber: (spec) => spec.runNumber,
        screened: () => true,
        agentRun: async (spec) => kept(spec, await hooks.run(spec)),
        markAgent: async (run, agreed) => {
          const spec = specs.get(run);
          if (!spec || run.reused_from) return run;
          const marked: CatalogRun = {
            ...run,
            decided_by: "agent",
            ...(agreed !== undefined ? { replay_agreed: agreed } : {}),
          };
          await rewriteRecord(spec, marked);
          return kept(spec, marked);
        },
        classify: (turn, target) => {
          const [first] = ctx.members;
          const realNames = new Map<string, string>([
            [target.capture.synthetic_name, first!.name],
            ...[...names!].map(([real, listed]) => [listed, real] as const),
            ...(ctx.installed ?? []).map((r) => [r.installName, r.installName] as const),
          ]);
          return classifyCatalogTurn(turn, realNames, target.adapter.skillOf);
        },
        writeReplayed: async (spec, verdict, turn) => {
          const loaded = firedBy(verdict);
          // Stryker disable next-line StringLiteral: equivalent, any name without a price prices as the empty one (none)
          const cost = ctx.agent.simulated ? 0 : costOf(turn.model ?? "", turn.usage);
          const run: CatalogRun = {
            owner: spec.owner,
            query: spec.query,
            should_trigger: spec.shouldTrigger,
            run_number: spec.runNumber,
            fired: loaded[0] ?? NONE,
            loaded,
            outcome: "success",
            dir: relative(ctx.catalogDir, spec.runDir).replaceAll("\\", "/"),
            ...(cost !== undefined ? { cost_usd: cost } : {}),
            decided_by: "replay",
          };
          await mkdir(spec.runDir, { recursive: true });
          await writeJson(join(spec.runDir, "replay-turn.json"), { verdict: verdict.label, ...turn });
          await writeJson(join(spec.runDir, CATALOG_RUN_FILE), run);
          return kept(spec, run);
        },
        agrees: (checked, verdict) =>
          checked.error !== undefined ? undefined : checked.fired === (firedBy(verdict)[0] ?? NONE),
        specOf: (run) => specs.get(run),
        decidedByReplay: (run) => run.decided_by === "replay",
        cancelled: (run) => run.outcome === "cancelled",
      },
    );
    return screened;
  };
  return {
    finishedEarlier: hooks.finishedEarlier,
    /** Runs the scheduler may hold at once: replays are requests, not processes (`REPLAYS_PER_AGENT_SLOT`). */
    lanes: () => Math.max(1, input.concurrency) * REPLAYS_PER_AGENT_SLOT,
    run: async (spec: CatalogRunSpec) => (await ready()).run(spec),
    finish: async (runs: CatalogRun[]) => (screened ? screened.finish(runs) : runs),
    summary: (runs: readonly CatalogRun[]): ScreenSummary =>
      screened
        ? screened.summary(runs)
        : {
            kind: "replay",
            decided_by_replay: 0,
            decided_by_agent: runs.filter((r) => r.outcome !== "cancelled").length,
          },
  };
}
