import type { AgentsPipelineOptions } from "./run-agents.js";
import { type PipelinePlan, planPipeline } from "./run-pipeline.js";

export interface AgentPlan {
  agent: string;
  plan: PipelinePlan;
}

/**
 * `run --agent a,b,… --dry-run`: each agent's plan as a run of that agent alone forecasts it (its share of a shard,
 * what the result store serves it, by keys made with its own identity, and the wall time of the rest), in the order
 * the agents would run.
 */
export async function planAgentsPipeline(
  options: AgentsPipelineOptions,
  simulated: boolean,
): Promise<AgentPlan[]> {
  const plans: AgentPlan[] = [];
  for (const agent of options.agents) {
    const { agents: _agents, onAgent: _onAgent, createAgent, ...rest } = options;
    const plan = await planPipeline(
      { ...rest, createAgent: (inputs) => createAgent(agent, inputs) },
      simulated,
    );
    plans.push({ agent, plan });
  }
  return plans;
}
