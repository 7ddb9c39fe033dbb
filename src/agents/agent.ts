import type { RunOutcomeName } from "../contracts/run-record.js";
import type { Redactor } from "../redact.js";
import type { SandboxSpec } from "../sandbox/index.js";
import type { AgentEvent } from "./events.js";
import type { ProcessResult } from "./process/run-process.js";

export type RunOutcome = RunOutcomeName;

/** Outcomes worth another try after a pause: the service was busy, not the run wrong. */
export const retryableOutcomes: readonly RunOutcome[] = ["rate_limited", "overloaded", "server_error"];

export type ResultEvent = Extract<AgentEvent, { kind: "result" }>;
export type InitEvent = Extract<AgentEvent, { kind: "init" }>;

/** Which tools a run may use: "eval" (work on the task: shell, edit, skills) or "read-only" (read and search). */
export type ToolPolicy = "eval" | "read-only";

export interface AgentRunRequest {
  prompt: string;
  /** Default "eval". */
  tools?: ToolPolicy;
  /** Added to the agent's own system prompt. */
  systemPrompt?: string;
  cwd: string;
  /** A fresh, empty home folder for this run alone. */
  home: string;
  model?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Where the raw stream is written, line by line, as it arrives (credentials masked); none when absent. */
  transcriptPath?: string;
  /** Sees every normalised event; returning "stop" ends the run at once (outcome "stopped"). */
  onEvent?: (event: AgentEvent) => "stop" | undefined;
  /** Stream per-message token usage, so a run stopped before its final result can still be priced. */
  streamUsage?: boolean;
  /** Run the agent, and everything it starts, inside this OS sandbox (bubblewrap); none: as a plain process. */
  sandbox?: SandboxSpec;
  /**
   * A prior conversation the run continues (`--context`): the agent sees these turns as history before the prompt,
   * through its own way of resuming a session. Only for an agent whose `continuesConversations` is set.
   */
  history?: readonly { role: "user" | "assistant"; content: string }[];
  /** Send the run's model requests to this base URL instead (a recording proxy in front of `apiBaseUrl`). */
  apiBaseUrl?: string;
}

export interface AgentRunResult {
  outcome: RunOutcome;
  /** A readable reason for any outcome but success. */
  message?: string;
  events: AgentEvent[];
  init?: InitEvent;
  result?: ResultEvent;
  process: ProcessResult;
  /** A sandboxed run: the hosts its network filter refused. */
  sandbox?: { refusedHosts: string[] };
}

/** Every agent (Claude Code now; Codex CLI and Gemini CLI later) is driven through this interface. */
export interface Agent {
  readonly name: string;
  /** The agent's version, when it is known without a run. */
  readonly version?: string;
  /** The permission, sandbox or approval mode of its eval runs, recorded with every run. */
  readonly mode?: string;
  /** Where the agent looks for project skills, relative to its working directory. */
  readonly skillsFolder: string;
  readonly binary: string;
  readonly simulated: boolean;
  /** Every run of this agent is sandboxed (`--sandbox`, or `"sandbox": true` in evals.json). */
  readonly sandboxed?: boolean;
  /** The sandbox every run gets, when `sandboxed`. */
  readonly sandbox?: SandboxSpec;
  /** Under the simulator: its script file, or null when it has none (runs then only load the skill and stop). */
  readonly simScript?: string | null;
  /** Names of skillgym's variables every run gets besides the allowed ones (the suite's evals.json `env`). */
  readonly passEnv?: readonly string[];
  /** Masks the credentials this agent passes to its child in everything written from a run. */
  readonly redactor: Redactor;
  /** What the user should know before runs start (a setting of theirs that hides skills, …). */
  readonly warnings?: readonly string[];
  /** The agent can continue a prior conversation headless (a request's `history`). */
  readonly continuesConversations?: boolean;
  /** The base URL its runs send model requests to (the simulator's, or the provider's API), for a replay to use. */
  readonly apiBaseUrl?: string;
  run(request: AgentRunRequest): Promise<AgentRunResult>;
}
