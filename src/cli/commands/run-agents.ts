import { ExitCode, SkillgymError } from "../../errors.js";
import { type PipelineOptions, runAgentsPipeline } from "../../pipeline/index.js";
import { planAgentsPipeline } from "../../pipeline/plan-agents.js";
import type { Suite } from "../../suite/index.js";
import { type AgentFlags, checkCredentials, type JudgeFlags, type Setup } from "../agent-setup.js";
import { type CiFlags, reportToCi } from "../ci-flags.js";
import type { Io } from "../io.js";
import { agentPlansLines } from "../reporters/dry-run.js";
import { matrixSummaryLines } from "../reporters/matrix-summary.js";
import type { StoreFlags } from "../store-flags.js";

export interface SeveralAgentsFlags extends AgentFlags, JudgeFlags, CiFlags, StoreFlags {
  dryRun?: boolean;
  simulate?: boolean;
  json?: boolean;
}

/** `run --agent a,b,…` or `--model a,b,…`: the dry run's plan per part, or the runs and the matrix. */
export async function runSeveralAgents(
  io: Io,
  { agents, models }: { agents: string[]; models: string[] },
  flags: SeveralAgentsFlags,
  setup: Setup,
  options: PipelineOptions,
): Promise<void> {
  if (flags.agentBin && agents.length > 1)
    throw new SkillgymError("USAGE", "--agent-bin names one binary; it cannot go with several agents", {
      hint: "put each agent's binary on PATH (or in node_modules) and leave out --agent-bin",
    });
  const { createAgent: _one, model: _model, ...rest } = options;
  const agentsOptions = {
    ...rest,
    agents,
    models,
    createAgent: async (agent: string, { suite, wantsJudge }: { suite: Suite; wantsJudge: boolean }) => {
      if (wantsJudge) await setup.judge(suite);
      return setup.agent(suite, agent);
    },
  };
  if (flags.dryRun) {
    // Each agent's part is forecast as a run of that agent alone would forecast it, the result store's included.
    const plans = await planAgentsPipeline(agentsOptions, flags.simulate === true);
    // Stryker disable next-line MethodExpression: equivalent, every part plans the same suite and so the same judge calls
    const judgeCalls = plans.some((p) => p.plan.judgeCalls > 0);
    if (!flags.json) io.out(`${agentPlansLines(plans).join("\n")}\n`);
    const credentials = flags.simulate
      ? "credentials: none needed (simulated)"
      : await checkCredentials(setup, flags, judgeCalls ? { judge: "judge" } : {});
    if (flags.json)
      io.out(
        `${JSON.stringify(
          {
            agents: plans.map(({ agent, plan }) => ({ agent, ...plan })),
            cost_usd: plans.reduce((sum, p) => sum + p.plan.costUsd, 0),
            wall_seconds: plans.reduce((sum, p) => sum + p.plan.wallSeconds, 0),
            credentials: flags.simulate ? "simulated" : "found",
          },
          null,
          2,
        )}\n`,
      );
    else io.out(`${credentials}\nnothing was started\n`);
    return;
  }
  const unit = models.length <= 1 ? "agent" : agents.length === 1 ? "model" : "part";
  const result = await runAgentsPipeline({
    ...agentsOptions,
    onAgent: (part, i, count) => io.err(`\n== ${part} (${unit} ${i + 1} of ${count}) ==\n`),
  });
  if (flags.json)
    io.out(
      `${JSON.stringify(
        {
          iteration_dir: result.iterationDir,
          simulated: result.simulated,
          cancelled: result.cancelled,
          budget_exhausted: result.budgetExhausted,
          cost_usd: result.costUsd,
          agents: result.matrix.agents,
          gates: result.gates,
          matrix: result.matrixFile,
          report: result.reportFile,
        },
        null,
        2,
      )}\n`,
    );
  else io.out(`${matrixSummaryLines(result, { fresh: flags.fresh === true }).join("\n")}\n`);
  await reportToCi(io, result.iterationDir, result.matrix.skill_name, flags, result.gates);
  if (result.cancelled) io.setExitCode(130);
  else if (result.gates.some((g) => !g.passed)) io.setExitCode(ExitCode.gateFailed);
}
