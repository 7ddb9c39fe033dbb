import type { AgentEvent, TokenUsage } from "./events.js";

/**
 * The tokens of every message the stream started, from its "usage" events: input and cache from each message's
 * start, output from its last delta (deltas count the output so far). Undefined when the stream carried none.
 */
export function usageFromStream(events: readonly AgentEvent[]): TokenUsage | undefined {
  const total: TokenUsage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  let seen = false;
  let output = 0;
  for (const event of events) {
    if (event.kind !== "usage") continue;
    if (event.phase === "start") {
      seen = true;
      total.output_tokens += output;
      total.input_tokens += event.usage.input_tokens;
      total.cache_creation_input_tokens += event.usage.cache_creation_input_tokens;
      total.cache_read_input_tokens += event.usage.cache_read_input_tokens;
      output = event.usage.output_tokens;
    } else output = Math.max(output, event.usage.output_tokens);
  }
  total.output_tokens += output;
  return seen ? total : undefined;
}
