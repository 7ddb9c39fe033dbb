import { SIM_MODEL } from "../contracts/sim-model.js";
import type { TokenUsage } from "./events.js";

/** US dollars per million tokens. A price given by hand may name only input and output: cache tokens then cost the input price. */
export interface TokenPrice {
  input: number;
  output: number;
  /** Input read from the prompt cache. */
  cachedInput?: number;
  /** Input written to the prompt cache. */
  cacheWrite?: number;
}

export type Vendor = "anthropic" | "openai" | "google";

// Anthropic: cache reads cost a tenth of the input price, 5-minute cache writes a quarter more.
const anthropic = (input: number, output: number): TokenPrice => ({
  input,
  output,
  cachedInput: input / 10,
  cacheWrite: input * 1.25,
});
// OpenAI caches on its own: cached input is billed at its own rate, and there is no charge for writing.
const openai = (input: number, output: number, cachedInput: number): TokenPrice => ({
  input,
  output,
  cachedInput,
  cacheWrite: input,
});
// Google's list prices for prompts up to 200k tokens (longer prompts cost more); implicit caching, no write charge.
const google = openai;

// Ordered per vendor: the first pattern that fits the model id wins, so newer generations come before their family's default.
const PRICES: Record<Vendor, [RegExp, TokenPrice][]> = {
  anthropic: [
    [/opus-4-[5-9]|opus-[5-9]/, anthropic(5, 25)],
    [/opus/, anthropic(15, 75)],
    [/sonnet/, anthropic(3, 15)],
    [/haiku-4|haiku-[5-9]/, anthropic(1, 5)],
    [/3-5-haiku|haiku-3-5/, anthropic(0.8, 4)],
    [/haiku/, anthropic(0.25, 1.25)],
  ],
  openai: [
    [/nano/, openai(0.05, 0.4, 0.005)],
    [/mini/, openai(0.25, 2, 0.025)],
    [/gpt-5\.[2-9]/, openai(1.75, 14, 0.175)],
    [/gpt-5|codex/, openai(1.25, 10, 0.125)],
    [/gpt-4\.1/, openai(2, 8, 0.5)],
    [/o3/, openai(2, 8, 0.5)],
  ],
  google: [
    [/gemini-3(\.\d+)?-pro/, google(2, 12, 0.2)],
    [/gemini-2\.5-pro/, google(1.25, 10, 0.125)],
    [/gemini-2\.5-flash-lite/, google(0.1, 0.4, 0.01)],
    [/gemini-2\.5-flash/, google(0.3, 2.5, 0.03)],
    [/gemini-2\.0-flash/, google(0.1, 0.4, 0.025)],
  ],
};

// Which vendor's table a model id belongs in, by the family names each vendor gives its models.
const VENDORS: [RegExp, Vendor][] = [
  [/claude|opus|sonnet|haiku/, "anthropic"],
  [/gemini/, "google"],
  [/gpt|codex|^o\d/, "openai"],
];

/** A model's list price; undefined for the simulator and for a model the table does not know. */
export function priceOf(model: string): TokenPrice | undefined {
  const id = model.toLowerCase();
  const vendor = VENDORS.find(([pattern]) => pattern.test(id))?.[1];
  if (!vendor) return undefined;
  return PRICES[vendor].find(([pattern]) => pattern.test(id))?.[1];
}

/** What a model's tokens cost: 0 under the simulator, undefined when the model's price (or the usage) is unknown. */
export function costOf(model: string, usage: TokenUsage | undefined): number | undefined {
  if (model === SIM_MODEL) return 0;
  const price = priceOf(model);
  if (!price || !usage) return undefined;
  return costAt(price, usage);
}

/** Tokens at a given price (one from the table, or one a judge was given). */
export function costAt(price: TokenPrice, usage: TokenUsage): number {
  return (
    (usage.inputTokens * price.input +
      usage.cacheReadTokens * (price.cachedInput ?? price.input) +
      usage.cacheWriteTokens * (price.cacheWrite ?? price.input) +
      usage.outputTokens * price.output) /
    1_000_000
  );
}

/** Usage with only plain input and output, as chat APIs count it. */
export function plainUsage(inputTokens: number, outputTokens: number): TokenUsage {
  return { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
}
