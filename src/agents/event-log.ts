import { readFile, writeFile } from "node:fs/promises";
import { type Redactor, redactJson } from "../redact.js";
import type { AgentEvent, TokenUsage } from "./events.js";

/** Writes a run's normalised events, one JSON line each, masked like its raw transcript. */
export async function writeEventLog(
  path: string,
  events: readonly AgentEvent[],
  redactor: Redactor,
): Promise<void> {
  const text = events.map((event) => `${JSON.stringify(redactJson(redactor, event))}\n`).join("");
  await writeFile(path, text, "utf8");
}

/** A run's normalised events, or undefined when the run folder has no event log. */
export async function readEventLog(path: string): Promise<AgentEvent[] | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  // A blank line is no JSON either: it goes with the broken ones.
  return text.split("\n").flatMap((line) => {
    try {
      return [withNeutralUsage(JSON.parse(line) as AgentEvent)];
    } catch {
      return [];
    }
  });
}

const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

// Event logs written before usage had one neutral shape carry Anthropic's field names.
function neutralUsage(usage: TokenUsage | Record<string, unknown>): TokenUsage {
  if ("inputTokens" in usage) return usage as TokenUsage;
  return {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheWriteTokens: count(usage.cache_creation_input_tokens),
  };
}

function withNeutralUsage(event: AgentEvent): AgentEvent {
  if ((event.kind === "usage" || event.kind === "result") && event.usage && typeof event.usage === "object")
    return { ...event, usage: neutralUsage(event.usage) };
  return event;
}
