import type { Agent } from "../agents/agent.js";
import type { ExecutionMode, TunePreset } from "../contracts/iteration-state.js";
import type { Judge } from "../judge/judge.js";
import type { StoreRequest } from "../run/options.js";
import type { RunReporter } from "../run/reporter.js";
import type { RetryPolicy } from "../run/retry.js";
import type { OutputLimits } from "../workspace/index.js";
import type { TuneReporter } from "./reporter.js";

export interface TuneOptions {
  /** The skill folders; several only in chain mode (in chain order). Ignored with `resumeDir`. */
  skillPaths: string[];
  mode?: ExecutionMode;
  preset?: TunePreset;
  maxIterations?: number;
  threshold?: number;
  /** Used as the one eval of a skill that has no evals.json; given to the evaluator as the intended use. */
  scenario?: string;
  /** Default: `<first skill's parent>/<name>-workspace`; the tune writes `tune-<timestamp>/` in it. */
  workspace?: string;
  /** Continue the tune in this folder from its last finished phase. */
  resumeDir?: string;
  /** Runs of each eval per iteration (a resumed tune keeps its own). */
  runs: number;
  concurrency: number;
  /** Per eval run unless the eval sets `timeout`, and per improver run. */
  timeoutSeconds: number;
  /** What each eval run's collected outputs may come to (default DEFAULT_OUTPUT_LIMITS). */
  outputLimits?: Partial<OutputLimits>;
  model?: string;
  maxCostUsd?: number;
  /** Reuse runs of unchanged skill versions across rounds and tunes (default store: <workspace>/.skillgym-cache). */
  store?: StoreRequest;
  retry?: RetryPolicy;
  signal?: AbortSignal;
  reporter?: TuneReporter;
  runReporter?: RunReporter;
  /** The agent for the eval runs and the improver; `suiteDir` is where a simulator script may be found. */
  createAgent: (suiteDir: string) => Promise<Agent>;
  /** The judge for expectations, and the evaluator's rubric unless `createEvaluator` is given. */
  createJudge: (suiteDir: string) => Promise<Judge>;
  /** The evaluate phase's judge (the seed's "Gemini evaluates"); default: `createJudge`'s. */
  createEvaluator?: (suiteDir: string) => Promise<Judge>;
  onGradingError?: (runDir: string, error: unknown) => void;
  now?: () => Date;
}
