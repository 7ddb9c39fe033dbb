import type { TriggerResults } from "../../contracts/trigger-results.js";
import { openGate } from "../../run/gate.js";
import type { FirstTurn, FirstTurnVerdict } from "./first-turn.js";
import { openReplayer, type ReplayerInput } from "./replayer.js";
import { type ReplayTarget, replayQuery } from "./send-replay.js";
import {
  agreementOf,
  belowAgreement,
  LEAST_AGREEMENT,
  newVerifyTally,
  recordAgreement,
  takeForVerify,
} from "./verify.js";

export type ScreenSummary = NonNullable<TriggerResults["screen"]>;

export type DecidedVerdict = Exclude<FirstTurnVerdict, { label: "undecided" }>;

/** What screening needs to know of one kind of run (a trigger run, a catalog run): the rest is shared. */
export interface ScreenedKind<S, R> {
  query(spec: S): string;
  runNumber(spec: S): number;
  /** Whether this run is screened at all (`ScreenOptions.queries`); the others go to the agent. */
  screened(spec: S): boolean;
  /** The agent's run (from the store, or made). */
  agentRun(spec: S): Promise<R>;
  /** Marks an agent's run `decided_by: "agent"` (and, when checked against a replay, whether they agreed). */
  markAgent(record: R, agreed?: boolean): Promise<R>;
  /** The run written as decided by replay. */
  writeReplayed(
    spec: S,
    verdict: DecidedVerdict,
    turn: FirstTurn,
    target: ReplayTarget,
    ms: number,
  ): Promise<R>;
  /** Whether the agent's run says what the replay said; undefined when the agent's run errored (no verdict). */
  agrees(record: R, verdict: DecidedVerdict, target: ReplayTarget): boolean | undefined;
  /** The run's spec; undefined for a run an earlier, interrupted attempt finished (kept as it is). */
  specOf(record: R): S | undefined;
  decidedByReplay(record: R): boolean;
  cancelled(record: R): boolean;
  /** Which way the first turn decides the run, by the capture's names. */
  classify(turn: FirstTurn, target: ReplayTarget): FirstTurnVerdict;
}

export interface ScreenRunsInput extends ReplayerInput {
  /** How many agent runs at once (`--concurrency`); a function is read again before each start (lowered under 429s). */
  concurrency: number | (() => number);
}

/**
 * Replays in flight per agent run allowed at once. A replay is one request to the model API, no process: a run's
 * slot in the scheduler is held through its replay, so at the agents' own concurrency the replays would queue
 * behind each other while the machine stands idle.
 */
export const REPLAYS_PER_AGENT_SLOT = 4;

/**
 * A scheduler's `run` with replay in front of the agent: each screened run first sends the agent's captured first
 * request with its query; a first turn that decides the run is its verdict, any other goes to the agent as before.
 * `finish` makes the replayed runs again with the agent when `--screen-verify` fell below the mark.
 */
export function screenRuns<S, R>(input: ScreenRunsInput, kind: ScreenedKind<S, R>) {
  const tally = newVerifyTally(input.screen.verifyPercent ?? 0);
  let fellBack = false;
  const { ready, state } = openReplayer(input);
  const slots = typeof input.concurrency === "number" ? () => input.concurrency as number : input.concurrency;
  // The scheduler runs `lanes()` at once; of those, only `slots()` may be agent runs.
  const throughAgentSlot = openGate(slots);
  const agentRun = (spec: S) => throughAgentSlot(() => kind.agentRun(spec));
  const lanes = () => Math.max(1, slots()) * REPLAYS_PER_AGENT_SLOT;

  async function run(spec: S): Promise<R> {
    if (!kind.screened(spec)) return kind.markAgent(await agentRun(spec));
    const replay = fellBack ? undefined : await ready();
    // A query the agent rewrites before sending it (Gemini CLI: a `/` command, an `@` file) is the agent's run.
    if (!replay || fellBack || replay.adapter.sendsAsIs?.(kind.query(spec)) === false)
      return kind.markAgent(await agentRun(spec));
    const started = Date.now();
    let turn: FirstTurn;
    try {
      turn = await replayQuery(replay, kind.query(spec), kind.runNumber(spec));
    } catch {
      // A replay that failed decides nothing: the agent makes the run, and its own retries deal with the service.
      return kind.markAgent(await agentRun(spec));
    }
    const verdict = kind.classify(turn, replay);
    if (verdict.label === "undecided") return kind.markAgent(await agentRun(spec));
    if (takeForVerify(tally)) {
      const checked = await agentRun(spec);
      const agreed = kind.agrees(checked, verdict, replay);
      if (agreed === undefined) return kind.markAgent(checked);
      recordAgreement(tally, agreed);
      if (!fellBack && belowAgreement(tally)) {
        fellBack = true;
        input.warn?.(
          `--screen-verify: replay agreed with the agent on ${tally.agreed} of ${tally.runs} checked runs, below ${LEAST_AGREEMENT * 100}%; the agents make the replayed runs again and every run after`,
        );
      }
      return kind.markAgent(checked, agreed);
    }
    return kind.writeReplayed(spec, verdict, turn, replay, Date.now() - started);
  }

  /** After the schedule: when verification fell below the mark, the agent makes every replayed run again. */
  async function finish(records: R[]): Promise<R[]> {
    if (!fellBack) return records;
    const redo = records.filter(
      (r) => kind.decidedByReplay(r) && kind.specOf(r) !== undefined && !input.ctx.signal?.aborted,
    );
    const again = new Map<R, R>();
    let next = 0;
    const worker = async () => {
      while (next < redo.length) {
        const record = redo[next++]!;
        again.set(record, await kind.markAgent(await kind.agentRun(kind.specOf(record)!)));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, slots()) }, worker));
    return records.map((r) => again.get(r) ?? r);
  }

  function summary(records: readonly R[]): ScreenSummary {
    const made = records.filter((r) => !kind.cancelled(r));
    const byReplay = made.filter((r) => kind.decidedByReplay(r)).length;
    const agreement = agreementOf(tally);
    return {
      kind: "replay",
      decided_by_replay: byReplay,
      decided_by_agent: made.length - byReplay,
      captured: state.captured,
      ...(state.off ? { off: state.off } : {}),
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

  return { run, finish, summary, lanes };
}
