import { describe, expect, it } from "vitest";
import { costOf, priceOf } from "../../src/agents/pricing.js";

// Every row of the table with the model ids it is for: a price one row off bills a model several times too much.
const rows: [string[], { input: number; output: number; cachedInput: number; cacheWrite: number }][] = [
  [
    ["claude-opus-4-5", "claude-opus-4-6-20260101", "claude-opus-5"],
    { input: 5, output: 25, cachedInput: 0.5, cacheWrite: 6.25 },
  ],
  [
    ["claude-opus-4-1-20250805", "claude-3-opus-latest"],
    { input: 15, output: 75, cachedInput: 1.5, cacheWrite: 18.75 },
  ],
  [
    ["claude-sonnet-4-5", "claude-3-7-sonnet-latest"],
    { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
  ],
  [["claude-haiku-4-5", "claude-haiku-5"], { input: 1, output: 5, cachedInput: 0.1, cacheWrite: 1.25 }],
  [
    ["claude-3-5-haiku-latest", "claude-haiku-3-5"],
    { input: 0.8, output: 4, cachedInput: 0.08, cacheWrite: 1 },
  ],
  [["claude-3-haiku-20240307"], { input: 0.25, output: 1.25, cachedInput: 0.025, cacheWrite: 0.3125 }],
  [["gpt-5-nano", "gpt-4.1-nano"], { input: 0.05, output: 0.4, cachedInput: 0.005, cacheWrite: 0.05 }],
  [
    ["gpt-5-mini", "o4-mini", "codex-mini-latest"],
    { input: 0.25, output: 2, cachedInput: 0.025, cacheWrite: 0.25 },
  ],
  [["gpt-5.2", "gpt-5.4-codex"], { input: 1.75, output: 14, cachedInput: 0.175, cacheWrite: 1.75 }],
  [["gpt-5", "gpt-5.1-codex", "codex"], { input: 1.25, output: 10, cachedInput: 0.125, cacheWrite: 1.25 }],
  [["gpt-4.1"], { input: 2, output: 8, cachedInput: 0.5, cacheWrite: 2 }],
  [["o3", "o3-2025-04-16"], { input: 2, output: 8, cachedInput: 0.5, cacheWrite: 2 }],
  [
    ["gemini-3-pro-preview", "gemini-3.1-pro-preview", "gemini-3.25-pro"],
    { input: 2, output: 12, cachedInput: 0.2, cacheWrite: 2 },
  ],
  [["gemini-2.5-pro"], { input: 1.25, output: 10, cachedInput: 0.125, cacheWrite: 1.25 }],
  [["gemini-2.5-flash-lite"], { input: 0.1, output: 0.4, cachedInput: 0.01, cacheWrite: 0.1 }],
  [["gemini-2.5-flash"], { input: 0.3, output: 2.5, cachedInput: 0.03, cacheWrite: 0.3 }],
  [["gemini-2.0-flash"], { input: 0.1, output: 0.4, cachedInput: 0.025, cacheWrite: 0.1 }],
];

describe("each row of the price table", () => {
  for (const [models, price] of rows)
    it(`prices ${models.join(", ")}`, () => {
      for (const model of models) {
        const got = priceOf(model);
        expect(got, model).toBeDefined();
        for (const field of ["input", "output", "cachedInput", "cacheWrite"] as const)
          expect(got?.[field], `${model} ${field}`).toBeCloseTo(price[field], 10);
      }
    });
});

describe("which vendor a model belongs to", () => {
  it("is read from its id in any case", () => {
    expect(priceOf("Claude-Sonnet-4-5")).toMatchObject({ input: 3, output: 15 });
    expect(priceOf("GPT-5-MINI")).toMatchObject({ input: 0.25, output: 2 });
    expect(
      costOf("Gemini-2.5-Pro", {
        inputTokens: 1e6,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      }),
    ).toBeCloseTo(1.25, 10);
  });

  it("takes an o-digit name for OpenAI's only at the start of the id", () => {
    expect(priceOf("turbo3-mini")).toBeUndefined();
    expect(priceOf("o1-mini")).toMatchObject({ input: 0.25 });
  });

  it("knows no price for a known vendor's model the table lacks", () => {
    expect(priceOf("claude-instant-1")).toBeUndefined();
    expect(priceOf("gpt-3.5-turbo")).toBeUndefined();
    expect(priceOf("gemini-1.0-ultra")).toBeUndefined();
  });
});
