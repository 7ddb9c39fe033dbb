import type { TokenUsage } from "../events.js";

interface Price {
  /** US dollars per million tokens. */
  input: number;
  cachedInput: number;
  output: number;
}

// Google's list prices for prompts up to 200k tokens (ai.google.dev/pricing); longer prompts cost more.
const PRICES: [prefix: string, price: Price][] = [
  ["gemini-3-pro", { input: 2, cachedInput: 0.2, output: 12 }],
  ["gemini-3.1-pro", { input: 2, cachedInput: 0.2, output: 12 }],
  ["gemini-2.5-pro", { input: 1.25, cachedInput: 0.125, output: 10 }],
  ["gemini-2.5-flash-lite", { input: 0.1, cachedInput: 0.01, output: 0.4 }],
  ["gemini-2.5-flash", { input: 0.3, cachedInput: 0.03, output: 2.5 }],
  ["gemini-2.0-flash", { input: 0.1, cachedInput: 0.025, output: 0.4 }],
];

/** What a model's tokens cost; 0 for the simulator, undefined for a model whose price is unknown. */
export function geminiCost(model: string, usage: TokenUsage): number | undefined {
  if (model === "skillgym-sim") return 0;
  const price = PRICES.find(([prefix]) => model.startsWith(prefix))?.[1];
  if (!price) return undefined;
  return (
    (usage.input_tokens * price.input +
      usage.cache_read_input_tokens * price.cachedInput +
      usage.output_tokens * price.output) /
    1_000_000
  );
}
