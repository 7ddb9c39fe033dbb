import type { RunOutcomeName } from "../contracts/run-record.js";
import type { AgentEvent } from "./events.js";
import type { ProcessResult } from "./process/run-process.js";
import type { Redactor } from "./redact.js";

export type RunOutcome = RunOutcomeName;

/** Outcomes worth another try after a pause: the service was busy, not the run wrong. */
export const retryableOutcomes: readonly RunOutcome[] = ["rate_limited", "overloaded", "server_error"];

export type ResultEvent = Extract<AgentEvent, { kind: "result" }>;
export type InitEvent = Extract<AgentEvent, { kind: "init" }>;

export interface AgentRunRequest {
  prompt: string;
  cwd: string;
  /** A fresh, empty home folder for this run alone. */
  home: string;
  model?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Where the stream is written, line by line, as it arrives (credentials masked). */
  transcriptPath: string;
  /** Sees every event; returning "stop" ends the run at once (outcome "stopped"). */
  onEvent?: (event: AgentEvent) => "stop" | undefined;
  /** Stream per-message token usage, so a run stopped before its final result can still be priced. */
  streamUsage?: boolean;
}

export interface AgentRunResult {
  outcome: RunOutcome;
  /** A readable reason for any outcome but success. */
  message?: string;
  events: AgentEvent[];
  init?: InitEvent;
  result?: ResultEvent;
  process: ProcessResult;
}

/** Every agent (Claude Code now; Codex CLI and Gemini CLI later) is driven through this interface. */
export interface Agent {
  readonly name: string;
  /** Where the agent looks for project skills, relative to its working directory. */
  readonly skillsFolder: string;
  readonly binary: string;
  readonly simulated: boolean;
  /** Under the simulator: its script file, or null when it has none (runs then only load the skill and stop). */
  readonly simScript?: string | null;
  /** Masks the credentials this agent passes to its child in everything written from a run. */
  readonly redactor: Redactor;
  run(request: AgentRunRequest): Promise<AgentRunResult>;
}
