import type { AgentEvent } from "../../agents/events.js";

/** Everything a check may look at once a run has ended. */
export interface CheckContext {
  /** The finished workspace of the run (the agent's working directory after it ended). */
  workspaceDir: string;
  /** The run's events: tool_use events carry name and input. */
  events: readonly AgentEvent[];
  /** The skill under test's real name (default for skill_invoked). */
  skillName: string;
  /** Other names the skill under test was installed under (trigger evals use synthetic names). */
  skillAliases?: readonly string[];
  /** Files the run created, modified or deleted (POSIX paths relative to workspaceDir). */
  changes: { created: readonly string[]; modified: readonly string[]; deleted: readonly string[] };
  /** Default limit for `command` checks in ms (a check's own `timeout` is in seconds). */
  commandTimeoutMs: number;
  /** Names of skillgym's variables the suite passes to `command` checks (evals.json `env`). */
  passEnv?: readonly string[];
  /** The run was sandboxed: `command` checks run in a sandbox too, through this bubblewrap binary. */
  sandbox?: CheckSandbox;
  signal?: AbortSignal;
}

/** What grading one check found: whether it passed and the evidence quoted for it. */
export interface CheckVerdict {
  passed: boolean;
  evidence: string;
}

/** How a sandboxed run's `command` checks are sandboxed: no network, the workspace alone writable. */
export interface CheckSandbox {
  bwrap: string;
}
