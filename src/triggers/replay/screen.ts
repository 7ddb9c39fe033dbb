import type { TriggerResults } from "../../contracts/trigger-results.js";
import type { ResultStore } from "../../store/index.js";
import type { TriggerRunSpec } from "../plan.js";
import type { TriggerContext, TriggerRunRecord } from "../run-trigger.js";
import { replayAdapterFor } from "./adapters.js";
import { captureFirstRequest } from "./capture.js";
import { classifyFirstTurn } from "./first-turn.js";
import { markedAgentRun, writeReplayedRun } from "./replayed-run.js";
import { type ReplayTarget, replayQuery } from "./send-replay.js";
import {
  agreementOf,
  belowAgreement,
  LEAST_AGREEMENT,
  newVerifyTally,
  recordAgreement,
  takeForVerify,
} from "./verify.js";

/** `--screen replay` and `--screen-verify P`. */
export interface ScreenOptions {
  kind: "replay";
  /** Also run this percentage of the replayed runs through the agent and compare. */
  verifyPercent?: number;
  /** Where the provider's API key is read; default the process's environment. */
  env?: NodeJS.ProcessEnv;
}

interface TriggerHooks {
  finishedEarlier(spec: TriggerRunSpec): Promise<TriggerRunRecord | undefined>;
  run(spec: TriggerRunSpec): Promise<TriggerRunRecord>;
}

export interface ScreenInput {
  ctx: TriggerContext;
  hooks: TriggerHooks;
  screen: ScreenOptions;
  description: string;
  iterationDir: string;
  store?: ResultStore;
  concurrency: number;
  warn?: (message: string) => void;
}

export type ScreenSummary = NonNullable<TriggerResults["screen"]>;

// The simulator takes any key; the agent's runs under it are given this one.
const SIMULATOR_KEY = "sk-skillgym-simulator";

/**
 * The trigger scheduler's hooks with replay in front of the agent: each run first sends the agent's captured first
 * request with its query; a first turn that decides the run is its verdict, any other goes to the agent as before.
 */
export function screenedHooks(input: ScreenInput) {
  const { ctx, hooks } = input;
  const adapter = replayAdapterFor(ctx.agent.name);
  const tally = newVerifyTally(input.screen.verifyPercent ?? 0);
  let off: string | undefined;
  let fellBack = false;
  let captured = false;
  const turnOff = (reason: string) => {
    off = reason;
    input.warn?.(`--screen replay: ${reason}; the agents decide every run`);
  };
  let target: Promise<ReplayTarget | undefined> | undefined;
  const ready = () => {
    target ??= (async () => {
      if (!adapter) return void turnOff(`${ctx.agent.name} has no replay yet`);
      const apiKey = ctx.agent.simulated
        ? SIMULATOR_KEY
        : (input.screen.env ?? process.env)[adapter.apiKeyVariable];
      if (!apiKey)
        return void turnOff(
          `replay sends requests to the API itself and needs an API key (${adapter.apiKeyVariable}); a subscription login is the agent's alone`,
        );
      const got = await captureFirstRequest({
        ctx,
        adapter,
        description: input.description,
        iterationDir: input.iterationDir,
        ...(input.store ? { store: input.store } : {}),
      });
      if (!got.capture) return void turnOff(got.reason);
      captured = got.captured;
      return {
        adapter,
        capture: got.capture,
        baseUrl: ctx.agent.apiBaseUrl ?? "",
        apiKey,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      };
    })();
    return target;
  };

  async function run(spec: TriggerRunSpec): Promise<TriggerRunRecord> {
    const replay = fellBack ? undefined : await ready();
    if (!replay || fellBack || replay.adapter.sendsAsIs?.(spec.query) === false)
      return markedAgentRun(await hooks.run(spec));
    const started = Date.now();
    let turn: Awaited<ReturnType<typeof replayQuery>>;
    try {
      turn = await replayQuery(replay, spec.query, spec.runNumber);
    } catch {
      // A replay that failed decides nothing: the agent makes the run, and its own retries deal with the service.
      return markedAgentRun(await hooks.run(spec));
    }
    const verdict = classifyFirstTurn(turn, replay.capture.synthetic_name, replay.adapter.skillOf);
    if (verdict.label === "undecided") return markedAgentRun(await hooks.run(spec));
    if (takeForVerify(tally)) {
      const checked = await hooks.run(spec);
      if (checked.error !== undefined) return markedAgentRun(checked);
      const agreed = checked.triggered === (verdict.label === "triggered");
      recordAgreement(tally, agreed);
      if (!fellBack && belowAgreement(tally)) {
        fellBack = true;
        input.warn?.(
          `--screen-verify: replay agreed with the agent on ${tally.agreed} of ${tally.runs} checked runs, below ${LEAST_AGREEMENT * 100}%; the agents make the replayed runs again and every run after`,
        );
      }
      return markedAgentRun(checked, agreed);
    }
    return writeReplayedRun({
      spec,
      verdict,
      turn,
      skillName: ctx.skillName,
      listedAs: replay.capture.synthetic_name,
      simulated: ctx.agent.simulated,
      durationMs: Date.now() - started,
    });
  }

  /** After the schedule: when verification fell below the mark, the agent makes every replayed run again. */
  async function finish(records: TriggerRunRecord[]): Promise<TriggerRunRecord[]> {
    if (!fellBack) return records;
    const redo = records.filter((r) => r.record.decided_by === "replay" && !ctx.signal?.aborted);
    const again = new Map<TriggerRunRecord, TriggerRunRecord>();
    let next = 0;
    const worker = async () => {
      while (next < redo.length) {
        const record = redo[next++]!;
        again.set(record, await markedAgentRun(await hooks.run(record.spec)));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, input.concurrency) }, worker));
    return records.map((r) => again.get(r) ?? r);
  }

  function summary(records: readonly TriggerRunRecord[]): ScreenSummary {
    const made = records.filter((r) => r.outcome !== "cancelled");
    const byReplay = made.filter((r) => r.record.decided_by === "replay").length;
    const agreement = agreementOf(tally);
    return {
      kind: "replay",
      decided_by_replay: byReplay,
      decided_by_agent: made.length - byReplay,
      captured,
      ...(off ? { off } : {}),
      ...(tally.percent > 0
        ? {
            verified: {
              runs: tally.runs,
              agreed: tally.agreed,
              ...(agreement !== undefined ? { agreement } : {}),
              fell_back: fellBack,
            },
          }
        : {}),
    };
  }

  return { finishedEarlier: hooks.finishedEarlier, run, finish, summary };
}
