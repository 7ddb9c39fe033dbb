import { join } from "node:path";
import { ReusedFrom } from "../contracts/store-entry.js";
import { agentKeyParts, storeSource } from "../run/reuse.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { copyStoredRun, type ResultStore, storeKey } from "../store/index.js";
import { conditionKeyParts, skillHashes } from "./condition-key.js";
import type { ProjectCondition } from "./conditions.js";
import type { ContextCondition } from "./context.js";
import type { TriggerRunSpec } from "./plan.js";
import {
  executeTriggerRun,
  resumeFinishedTriggerRun,
  type TriggerContext,
  type TriggerRunRecord,
} from "./run-trigger.js";

export interface TriggerReuse {
  store: ResultStore;
  iterationDir: string;
  /** The description the runs install (`--description`, else the skill's own). */
  description: string;
}

const TRIGGER_FILE = "trigger.json";

/**
 * The key of one trigger run: whether a query triggers depends on the agent, the model, the skill's name and
 * description, the skills installed beside it and the project it runs in, not on the body an iteration edited.
 * The conditions a run had none of stay out of the key, so the keys stored before them still match.
 */
async function keyParts(ctx: TriggerKeyContext, description: string) {
  return {
    kind: "trigger-run",
    ...(await agentKeyParts(ctx)),
    name: ctx.skillName,
    description,
    timeout_ms: ctx.timeoutMs,
    companions: await skillHashes(ctx.companions),
    ...(await conditionKeyParts(ctx)),
  };
}

async function reusedMark(runDir: string): Promise<ReusedFrom | undefined> {
  const record = (await readJsonIfPresent(join(runDir, TRIGGER_FILE))) as
    | { reused_from?: unknown }
    | undefined;
  const parsed = ReusedFrom.safeParse(record?.reused_from);
  return parsed.success ? parsed.data : undefined;
}

type TriggerKeyContext = Pick<
  TriggerContext,
  "agent" | "model" | "skillName" | "timeoutMs" | "companions" | "installed"
> & { project?: Pick<ProjectCondition, "hash">; context?: Pick<ContextCondition, "hash"> };

/** The store key of each trigger run of one description. */
export function triggerRunKeys(ctx: TriggerKeyContext, description: string) {
  const common = keyParts(ctx, description);
  return async (spec: Pick<TriggerRunSpec, "query" | "runNumber">) =>
    storeKey({ ...(await common), query: spec.query, run: spec.runNumber });
}

/** The trigger scheduler's hooks with a result store: a stored verdict of the same run is copied in, marked and free. */
export function triggerHooksWithStore(ctx: TriggerContext, reuse: TriggerReuse) {
  const keyOf = triggerRunKeys(ctx, reuse.description);
  const marked = (record: TriggerRunRecord, from: ReusedFrom): TriggerRunRecord => ({
    ...record,
    reusedFrom: from,
  });
  return {
    async finishedEarlier(spec: TriggerRunSpec): Promise<TriggerRunRecord | undefined> {
      const earlier = await resumeFinishedTriggerRun(spec);
      if (earlier) {
        const mark = await reusedMark(spec.runDir);
        return mark ? marked(earlier, mark) : earlier;
      }
      const stored = await reuse.store.get("trigger-run", await keyOf(spec));
      if (!stored) return undefined;
      await copyStoredRun(stored, spec.runDir);
      const record = (await readJsonIfPresent(join(spec.runDir, TRIGGER_FILE))) as Record<string, unknown>;
      await writeJson(join(spec.runDir, TRIGGER_FILE), {
        ...record,
        cost_usd: 0,
        reused_from: stored.entry.source,
      });
      const copied = await resumeFinishedTriggerRun(spec);
      return copied ? marked(copied, stored.entry.source) : undefined;
    },
    async run(spec: TriggerRunSpec): Promise<TriggerRunRecord> {
      const record = await executeTriggerRun(spec, ctx);
      if (record.error !== undefined || ctx.signal?.aborted) return record;
      await reuse.store.put("trigger-run", await keyOf(spec), {
        runDir: spec.runDir,
        source: storeSource(reuse.iterationDir, spec.runDir, record.record.cost_usd ?? 0),
      });
      return record;
    },
  };
}
