import type { AgentRunResult } from "../agents/agent.js";
import { anthropicPrice, costOf } from "../agents/pricing.js";
import { usageFromStream } from "../agents/stream-usage.js";

export interface TriggerRunCost {
  cost_usd: number;
  /** "stream" when no result line gave the cost and it was priced from the streamed token counts. */
  cost_source?: "stream";
}

/**
 * What a trigger run cost: the agent's own figure from its result line, else (a run stopped at the first skill
 * load writes none) its streamed tokens priced by the run's model; simulated runs cost nothing.
 */
export function triggerRunCost(
  result: AgentRunResult | undefined,
  options: { simulated: boolean; model?: string },
): TriggerRunCost {
  if (options.simulated || !result) return { cost_usd: 0 };
  if (result.result?.costUsd !== undefined) return { cost_usd: result.result.costUsd };
  const usage = usageFromStream(result.events);
  const price = anthropicPrice(result.init?.model || options.model || "");
  if (!usage || !price) return { cost_usd: 0 };
  const cost = costOf(
    {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      cacheReadTokens: usage.cache_read_input_tokens,
      cacheWriteTokens: usage.cache_creation_input_tokens,
    },
    price,
  );
  return { cost_usd: cost, cost_source: "stream" };
}
