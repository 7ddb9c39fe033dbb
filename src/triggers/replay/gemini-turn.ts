import type { TokenUsage } from "../../agents/events.js";
import type { FirstTurn } from "./first-turn.js";
import { sseData } from "./sse.js";

interface Part {
  text?: string;
  /** A thought summary: the model's thinking, not its answer. */
  thought?: boolean;
  functionCall?: { name?: string; args?: Record<string, unknown> };
}

interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/** One GenerateContentResponse: the whole answer, or one chunk of a streamed one. */
interface Chunk {
  candidates?: { content?: { parts?: Part[] } }[];
  usageMetadata?: UsageMetadata;
  modelVersion?: string;
  error?: { message?: string; status?: string };
}

// Cached tokens are part of the prompt's count; thinking is billed as output.
const tokensOf = (usage: UsageMetadata): TokenUsage => {
  const cached = usage.cachedContentTokenCount ?? 0;
  return {
    inputTokens: Math.max(0, (usage.promptTokenCount ?? 0) - cached),
    outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
};

/**
 * The chunks of one answer put together: the first candidate's parts in order (a stream sends the text in pieces and
 * each function call whole), the last model name and usage given.
 */
function turnOf(chunks: readonly Chunk[]): FirstTurn {
  let text = "";
  const calls: FirstTurn["calls"] = [];
  let model: string | undefined;
  let usage: UsageMetadata | undefined;
  for (const chunk of chunks) {
    if (chunk.error) throw new Error(chunk.error.message ?? chunk.error.status ?? "the answer was an error");
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (typeof part.text === "string" && !part.thought) text += part.text;
      if (part.functionCall?.name)
        calls.push({ name: part.functionCall.name, input: part.functionCall.args ?? {} });
    }
    model = chunk.modelVersion ?? model;
    usage = chunk.usageMetadata ?? usage;
  }
  return { ...(model ? { model } : {}), ...(usage ? { usage: tokensOf(usage) } : {}), text, calls };
}

// `alt=sse`: one `data:` line of JSON per chunk, events apart by a blank line.
function sseChunks(text: string): Chunk[] {
  return sseData(text).map((data) => JSON.parse(data) as Chunk);
}

/**
 * The first turn of a Gemini API answer, as the agent asked for it: `streamGenerateContent?alt=sse` streams
 * server-sent events, `streamGenerateContent` without it a JSON array of chunks, `generateContent` one JSON answer.
 */
export function readGeminiTurn(contentType: string, text: string): FirstTurn {
  if (contentType.includes("text/event-stream")) return turnOf(sseChunks(text));
  const parsed = JSON.parse(text) as Chunk | Chunk[];
  return turnOf(Array.isArray(parsed) ? parsed : [parsed]);
}
