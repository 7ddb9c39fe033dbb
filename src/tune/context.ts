import type { Agent } from "../agents/agent.js";
import { type IterationState, targetSkillsOf } from "../contracts/iteration-state.js";
import type { Judge } from "../judge/judge.js";
import type { Budget } from "../run/budget.js";
import type { TuneOptions } from "./options.js";
import { inTune } from "./paths.js";
import type { TuneReporter } from "./reporter.js";
import { saveTuneState } from "./tune-state.js";

/** What the phases of one tune share: its folder, its state, the agent and judge, the spending limit. */
export interface TuneContext {
  dir: string;
  state: IterationState;
  options: TuneOptions;
  budget: Budget | undefined;
  reporter: TuneReporter;
  /** The skills in the order they run (chain order, or the one skill). */
  order: string[];
  runs: number;
  evalsPathOf(name: string): string;
  agent(): Promise<Agent>;
  judge(): Promise<Judge>;
  /** The judge of the evaluate phase's rubric. */
  evaluator(): Promise<Judge>;
  at(relative: string): string;
  now(): Date;
  save(): Promise<void>;
}

export function createContext(input: {
  dir: string;
  state: IterationState;
  options: TuneOptions;
  budget: Budget | undefined;
  suiteDir: string;
}): TuneContext {
  const { dir, state, options } = input;
  const names = targetSkillsOf(state);
  let agent: Promise<Agent> | undefined;
  let judge: Promise<Judge> | undefined;
  let evaluator: Promise<Judge> | undefined;
  const now = options.now ?? (() => new Date());
  const judgeOf = () => {
    judge ??= options.createJudge(input.suiteDir);
    return judge;
  };
  return {
    dir,
    state,
    options,
    budget: input.budget,
    reporter: options.reporter ?? {},
    order: state.execution_mode === "chain" && state.chain_order ? state.chain_order : names,
    runs: state.runs_per_eval ?? options.runs,
    evalsPathOf(name) {
      const path = state.evals_paths?.[names.indexOf(name)];
      if (path === undefined) throw new Error(`iteration-state.json names no eval suite for "${name}"`);
      return path;
    },
    agent() {
      agent ??= options.createAgent(input.suiteDir);
      return agent;
    },
    judge: judgeOf,
    evaluator() {
      evaluator ??= options.createEvaluator ? options.createEvaluator(input.suiteDir) : judgeOf();
      return evaluator;
    },
    at: (relative) => inTune(dir, relative),
    now,
    save: () => saveTuneState(dir, state, now()),
  };
}
