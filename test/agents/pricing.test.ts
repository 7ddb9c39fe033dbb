import { describe, expect, it } from "vitest";
import { costAt, costOf, plainUsage, priceOf } from "../../src/agents/pricing.js";

const million = (tokens: Partial<Record<"input" | "output" | "read" | "write", number>>) => ({
  inputTokens: (tokens.input ?? 0) * 1e6,
  outputTokens: (tokens.output ?? 0) * 1e6,
  cacheReadTokens: (tokens.read ?? 0) * 1e6,
  cacheWriteTokens: (tokens.write ?? 0) * 1e6,
});

describe("the price table", () => {
  it("prices Anthropic models by family and generation", () => {
    expect(priceOf("claude-sonnet-4-5-20250929")).toMatchObject({ input: 3, output: 15 });
    expect(priceOf("claude-opus-4-5")).toMatchObject({ input: 5, output: 25 });
    expect(priceOf("claude-opus-4-1-20250805")).toMatchObject({ input: 15, output: 75 });
    expect(priceOf("claude-haiku-4-5")).toMatchObject({ input: 1, output: 5 });
    expect(priceOf("claude-3-5-haiku-latest")).toMatchObject({ input: 0.8, output: 4 });
    expect(priceOf("claude-3-haiku-20240307")).toMatchObject({ input: 0.25, output: 1.25 });
  });

  it("prices OpenAI models, cached input at its own rate", () => {
    expect(priceOf("gpt-5.1-codex")).toMatchObject({ input: 1.25, output: 10, cachedInput: 0.125 });
    expect(priceOf("gpt-5-mini")).toMatchObject({ input: 0.25, output: 2, cachedInput: 0.025 });
    expect(priceOf("gpt-5-nano")).toMatchObject({ input: 0.05, output: 0.4 });
    expect(priceOf("gpt-5.2")).toMatchObject({ input: 1.75, output: 14 });
    expect(priceOf("gpt-4.1")).toMatchObject({ input: 2, output: 8, cachedInput: 0.5 });
  });

  it("prices Gemini models", () => {
    expect(priceOf("gemini-2.5-pro")).toMatchObject({ input: 1.25, output: 10, cachedInput: 0.125 });
    expect(priceOf("gemini-2.5-flash")).toMatchObject({ input: 0.3, output: 2.5, cachedInput: 0.03 });
    expect(priceOf("gemini-2.5-flash-lite")).toMatchObject({ input: 0.1, output: 0.4 });
    expect(priceOf("gemini-3-pro-preview")).toMatchObject({ input: 2, output: 12 });
    expect(priceOf("gemini-3.1-pro-preview")).toMatchObject({ input: 2, output: 12 });
  });

  it("knows no price for the simulator or an unknown model", () => {
    expect(priceOf("skillgym-sim")).toBeUndefined();
    expect(priceOf("llama3.1:8b")).toBeUndefined();
    expect(priceOf("gemini-9-ultra")).toBeUndefined();
  });
});

describe("costOf", () => {
  it("charges cache reads and writes at the vendor's rates", () => {
    // Anthropic: a cache read costs a tenth of the input price, a write a quarter more.
    expect(costOf("claude-sonnet-4-5", million({ input: 1, output: 0.1, read: 1, write: 1 }))).toBeCloseTo(
      3 + 1.5 + 0.3 + 3.75,
      10,
    );
    // OpenAI and Google: cached input at its list price, no charge for writing the cache.
    expect(costOf("gpt-5.1-codex", million({ input: 1, read: 1, write: 1 }))).toBeCloseTo(
      1.25 + 0.125 + 1.25,
      10,
    );
    expect(costOf("gemini-2.5-pro", million({ input: 1, output: 1, read: 1 }))).toBeCloseTo(
      1.25 + 10 + 0.125,
      10,
    );
  });

  it("is 0 under the simulator and unknown, never 0, for an unpriced model or missing usage", () => {
    expect(costOf("skillgym-sim", million({ input: 1 }))).toBe(0);
    expect(costOf("some-future-model", million({ input: 1 }))).toBeUndefined();
    expect(costOf("claude-sonnet-4-5", undefined)).toBeUndefined();
  });

  it("prices tokens at a price given by hand, cache tokens at the input price when it names none", () => {
    expect(costAt({ input: 1, output: 2 }, plainUsage(1e6, 1e6))).toBeCloseTo(3, 10);
    expect(costAt({ input: 1, output: 2 }, million({ read: 1 }))).toBeCloseTo(1, 10);
  });
});
