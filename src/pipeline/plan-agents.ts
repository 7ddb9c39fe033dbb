import { lanesOf } from "./lanes.js";
import type { AgentsPipelineOptions } from "./run-agents.js";
import { type PipelinePlan, planPipeline } from "./run-pipeline.js";

export interface AgentPlan {
  /** The part's folder name: the agent's, the model's, or `<agent>-<model>`. */
  agent: string;
  /** The model the part asks for, with `--model a,b`. */
  model?: string;
  plan: PipelinePlan;
}

/**
 * `run --agent a,b,… --dry-run` (or `--model a,b`): each part's plan as a run of that agent and model alone forecasts
 * it (its share of a shard, what the result store serves it, by keys made with its own identity, and the wall time
 * of the rest), in the order the parts would run.
 */
export async function planAgentsPipeline(
  options: AgentsPipelineOptions,
  simulated: boolean,
): Promise<AgentPlan[]> {
  const { agents, models, onAgent: _onAgent, createAgent, ...rest } = options;
  const lanes = lanesOf(agents, models ?? (rest.model ? [rest.model] : []));
  const plans: AgentPlan[] = [];
  for (const lane of lanes) {
    const plan = await planPipeline(
      {
        ...rest,
        ...(lane.model ? { model: lane.model } : {}),
        createAgent: (inputs) => createAgent(lane.agent, inputs),
      },
      simulated,
    );
    plans.push({ agent: lane.dir, ...(lane.model ? { model: lane.model } : {}), plan });
  }
  return plans;
}
