import type { Benchmark } from "../contracts/benchmark.js";
import type { AgentMatrix, AgentMatrixRow } from "../contracts/matrix.js";
import type { TriggerSummary } from "../contracts/trigger-results.js";

/** What one agent's part of a cross-agent run left: its benchmark, trigger scores, spending and time. */
export interface AgentOutcome {
  agent: string;
  version?: string;
  model?: string;
  /** Relative to the iteration root. */
  dir: string;
  status: AgentMatrixRow["status"];
  benchmark?: Benchmark;
  triggers?: TriggerSummary;
  costUsd: number;
  wallSeconds: number;
}

function matrixRow(outcome: AgentOutcome): AgentMatrixRow {
  const b = outcome.benchmark;
  const baseline = b?.metadata.baseline_configuration ?? null;
  const runs = b?.runs ?? [];
  const t = outcome.triggers;
  return {
    agent: outcome.agent,
    ...(outcome.version ? { version: outcome.version } : {}),
    ...(outcome.model ? { model: outcome.model } : {}),
    dir: outcome.dir,
    status: outcome.status,
    with_skill_pass_rate: b?.run_summary.with_skill?.pass_rate.mean ?? null,
    baseline_configuration: baseline,
    baseline_pass_rate: baseline ? (b?.run_summary[baseline]?.pass_rate.mean ?? null) : null,
    delta_pass_rate: b?.statistics?.delta_pass_rate ?? null,
    ...(b?.statistics?.verdict ? { verdict: b.statistics.verdict.verdict } : {}),
    ...(b?.statistics?.redundant ? { redundant: true } : {}),
    graded_runs: runs.filter((r) => r.error === undefined).length,
    errored_runs: runs.filter((r) => r.error !== undefined).length,
    triggers: t
      ? { precision: t.precision, recall: t.recall, accuracy: t.accuracy, passed: t.passed, total: t.total }
      : null,
    cost_usd: outcome.costUsd,
    wall_seconds: outcome.wallSeconds,
  };
}

/** The agents of one iteration side by side, in the order they ran. */
export function buildAgentMatrix(input: {
  skillName: string;
  simulated: boolean;
  timestamp: string;
  outcomes: readonly AgentOutcome[];
}): AgentMatrix {
  return {
    skill_name: input.skillName,
    timestamp: input.timestamp,
    simulated: input.simulated,
    agents: input.outcomes.map(matrixRow),
  };
}
