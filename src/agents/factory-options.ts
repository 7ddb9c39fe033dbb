/** What every agent is made with, whichever agent it is (`createAgent`). */
export interface AgentFactoryOptions {
  /** Path of the agent's binary; default: the one installed with skillgym, then PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; every run then talks to it and needs no credentials. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Names of `env`'s variables every run gets (the suite's evals.json `env`); besides them a run sees only the
   * allowed base (PATH, locale, proxy, …) and, when not simulated, the agent's own settings and credentials.
   */
  passEnv?: readonly string[];
  /**
   * The models runs will ask for (`--model`, `--judge-model`): an agent that cannot choose one says so here (exit 2),
   * before any run starts. Agents whose model is a flag of theirs ignore it.
   */
  models?: readonly string[];
  /** Every run inside an OS sandbox; throws (exit 2 or 3) before anything starts when it cannot be had. */
  sandbox?: boolean;
}
