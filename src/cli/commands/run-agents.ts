import { ExitCode, SkillgymError } from "../../errors.js";
import { type PipelineOptions, planPipeline, runAgentsPipeline } from "../../pipeline/index.js";
import { type AgentFlags, checkCredentials, type JudgeFlags, type Setup } from "../agent-setup.js";
import { type CiFlags, reportToCi } from "../ci-flags.js";
import type { Io } from "../io.js";
import { shardShareLine } from "../reporters/dry-run.js";
import { matrixSummaryLines } from "../reporters/matrix-summary.js";
import { wallTimeLine } from "../reporters/result-lines.js";

export interface SeveralAgentsFlags extends AgentFlags, JudgeFlags, CiFlags {
  dryRun?: boolean;
  simulate?: boolean;
  json?: boolean;
}

/** `run --agent a,b,…`: the dry run's plan per agent, or the runs and the matrix. */
export async function runSeveralAgents(
  io: Io,
  agents: string[],
  flags: SeveralAgentsFlags,
  setup: Setup,
  options: PipelineOptions,
): Promise<void> {
  if (flags.agentBin)
    throw new SkillgymError("USAGE", "--agent-bin names one binary; it cannot go with several agents", {
      hint: "put each agent's binary on PATH (or in node_modules) and leave out --agent-bin",
    });
  if (flags.dryRun) {
    // The store's forecast needs one agent's identity; with several, the plan counts every run.
    const { store: _store, ...withoutStore } = options;
    const plan = await planPipeline(withoutStore, flags.simulate === true);
    const n = agents.length;
    const share = shardShareLine(plan);
    if (!flags.json && share) io.out(`${share}, per agent\n`);
    if (!flags.json)
      io.out(
        `plan for ${plan.skill}, per agent (${agents.join(", ")}): ${plan.agentRuns} eval runs, ${plan.triggerRuns} trigger runs, ${plan.judgeCalls} judge calls\n` +
          `estimated cost per agent: about $${plan.costUsd.toFixed(2)}; all ${n} agents: about $${(plan.costUsd * n).toFixed(2)}\n` +
          `${wallTimeLine({ ...plan, wallSeconds: plan.wallSeconds * n })} (the agents run one after another)\n`,
      );
    const credentials = flags.simulate
      ? "credentials: none needed (simulated)"
      : await checkCredentials(setup, flags, plan.judgeCalls > 0 ? { judge: "judge" } : {});
    if (flags.json)
      io.out(
        `${JSON.stringify(
          {
            agents: agents.map((agent) => ({ agent, ...plan })),
            cost_usd: plan.costUsd * n,
            wall_seconds: plan.wallSeconds * n,
            credentials: flags.simulate ? "simulated" : "found",
          },
          null,
          2,
        )}\n`,
      );
    else io.out(`${credentials}\nnothing was started\n`);
    return;
  }
  const { createAgent, ...rest } = options;
  const result = await runAgentsPipeline({
    ...rest,
    agents,
    createAgent: async (agent, { suite, wantsJudge }) => {
      if (wantsJudge) await setup.judge(suite.dir);
      return setup.agent(suite.dir, agent);
    },
    onAgent: (agent, i, count) => io.err(`\n== ${agent} (agent ${i + 1} of ${count}) ==\n`),
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
  else io.out(`${matrixSummaryLines(result).join("\n")}\n`);
  await reportToCi(io, result.iterationDir, result.matrix.skill_name, flags, result.gates);
  if (result.cancelled) io.setExitCode(130);
  else if (result.gates.some((g) => !g.passed)) io.setExitCode(ExitCode.gateFailed);
}
