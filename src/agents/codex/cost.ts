import { SIM_MODEL } from "../../contracts/sim-model.js";
import type { TokenUsage } from "../events.js";
import { costOf, type TokenPrice } from "../pricing.js";

// US dollars per million tokens (OpenAI's list prices); cached input costs a tenth. The first pattern that fits wins.
const openaiPrices: [RegExp, TokenPrice][] = [
  [/nano/, { inputPerMTok: 0.05, outputPerMTok: 0.4 }],
  [/mini/, { inputPerMTok: 0.25, outputPerMTok: 2 }],
  [/gpt-5\.[2-9]/, { inputPerMTok: 1.75, outputPerMTok: 14 }],
  [/gpt-5|codex/, { inputPerMTok: 1.25, outputPerMTok: 10 }],
  [/o3|gpt-4\.1/, { inputPerMTok: 2, outputPerMTok: 8 }],
];

export function openaiPrice(model: string): TokenPrice | undefined {
  const id = model.toLowerCase();
  return openaiPrices.find(([pattern]) => pattern.test(id))?.[1];
}

/** What a Codex run cost (its stream gives tokens, not dollars); nothing under the simulator; unknown for an unpriced model. */
export function codexCost(model: string, usage: TokenUsage | undefined): number | undefined {
  if (model === SIM_MODEL) return 0;
  const price = openaiPrice(model);
  if (!price || !usage) return undefined;
  return costOf(
    {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      cacheReadTokens: usage.cache_read_input_tokens,
      cacheWriteTokens: usage.cache_creation_input_tokens,
    },
    price,
  );
}
