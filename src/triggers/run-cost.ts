import type { AgentRunResult } from "../agents/agent.js";
import { costOf } from "../agents/pricing.js";
import { usageFromStream } from "../agents/stream-usage.js";

export interface TriggerRunCost {
  /** Absent when the cost is not known. */
  cost_usd?: number;
  /**
   * "stream" when no result line gave the cost and it was priced from the streamed token counts; "unknown" when
   * neither could give it (a model with no price, or a run stopped before its stream carried any token count).
   */
  cost_source?: "stream" | "unknown";
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
  // Stryker disable next-line StringLiteral: equivalent, any name without a price prices as the empty one (none)
  const model = result.init?.model || options.model || "";
  const fromStream = costOf(model, usageFromStream(result.events));
  if (fromStream !== undefined) return { cost_usd: fromStream, cost_source: "stream" };
  // A finished run whose agent gave tokens but no dollars (Codex, Gemini CLI with an unpriced model).
  const fromResult = costOf(model, result.result?.usage);
  return fromResult !== undefined ? { cost_usd: fromResult } : { cost_source: "unknown" };
}
