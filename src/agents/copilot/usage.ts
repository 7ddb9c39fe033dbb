import { readFile } from "node:fs/promises";
import type { ResultEvent } from "../agent.js";
import type { TokenUsage } from "../events.js";
import { isObject } from "../json-lines.js";
import { costOf } from "../pricing.js";

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** Each model's tokens in a `--usage-output-file` (its `modelMetrics`); undefined when the file is missing or bad. */
export async function readUsageFile(file: string): Promise<Map<string, TokenUsage> | undefined> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch {}
  // A missing file or bad JSON leaves data undefined.
  if (!isObject(data) || !isObject(data.modelMetrics)) return undefined;
  const models = new Map<string, TokenUsage>();
  for (const [model, metrics] of Object.entries(data.modelMetrics)) {
    const usage = isObject(metrics) && isObject(metrics.usage) ? metrics.usage : {};
    models.set(model, {
      inputTokens: num(usage.inputTokens),
      outputTokens: num(usage.outputTokens),
      cacheReadTokens: num(usage.cacheReadTokens),
      cacheWriteTokens: num(usage.cacheWriteTokens),
    });
  }
  return models;
}

/** A result with the tokens Copilot CLI wrote at its end, priced per model (no cost when any model's price is unknown). */
export function withUsage(result: ResultEvent, models: Map<string, TokenUsage>): ResultEvent {
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let cost: number | undefined = 0;
  for (const [model, tokens] of models) {
    usage.inputTokens += tokens.inputTokens;
    usage.outputTokens += tokens.outputTokens;
    usage.cacheReadTokens += tokens.cacheReadTokens;
    usage.cacheWriteTokens += tokens.cacheWriteTokens;
    const price = costOf(model, tokens);
    cost = cost === undefined || price === undefined ? undefined : cost + price;
  }
  return { ...result, usage, ...(cost !== undefined ? { costUsd: cost } : {}) };
}
