// US dollars per million tokens. Cache reads cost a tenth of the input price, cache writes a quarter more.
export interface TokenPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

// Ordered: the first pattern that fits the model id wins, so newer generations come before their family's default.
const anthropicPrices: [RegExp, TokenPrice][] = [
  [/opus-4-[5-9]|opus-[5-9]/, { inputPerMTok: 5, outputPerMTok: 25 }],
  [/opus/, { inputPerMTok: 15, outputPerMTok: 75 }],
  [/sonnet/, { inputPerMTok: 3, outputPerMTok: 15 }],
  [/haiku-4|haiku-[5-9]/, { inputPerMTok: 1, outputPerMTok: 5 }],
  [/3-5-haiku|haiku-3-5/, { inputPerMTok: 0.8, outputPerMTok: 4 }],
  [/haiku/, { inputPerMTok: 0.25, outputPerMTok: 1.25 }],
];

export function anthropicPrice(model: string): TokenPrice | undefined {
  const id = model.toLowerCase();
  return anthropicPrices.find(([pattern]) => pattern.test(id))?.[1];
}

export function costOf(counts: TokenCounts, price: TokenPrice): number {
  const input =
    counts.inputTokens + (counts.cacheReadTokens ?? 0) * 0.1 + (counts.cacheWriteTokens ?? 0) * 1.25;
  return (input * price.inputPerMTok + counts.outputTokens * price.outputPerMTok) / 1_000_000;
}
