import type { AgentEvent, TokenUsage } from "./events.js";

/**
 * The tokens of every message the stream started, from its "usage" events: input and cache from each message's
 * start, output from its last delta (deltas count the output so far). Undefined when the stream carried none.
 */
export function usageFromStream(events: readonly AgentEvent[]): TokenUsage | undefined {
  const total: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let seen = false;
  let output = 0;
  for (const event of events) {
    if (event.kind !== "usage") continue;
    if (event.phase === "start") {
      seen = true;
      total.outputTokens += output;
      total.inputTokens += event.usage.inputTokens;
      total.cacheWriteTokens += event.usage.cacheWriteTokens;
      total.cacheReadTokens += event.usage.cacheReadTokens;
      output = event.usage.outputTokens;
    } else output = Math.max(output, event.usage.outputTokens);
  }
  total.outputTokens += output;
  return seen ? total : undefined;
}
