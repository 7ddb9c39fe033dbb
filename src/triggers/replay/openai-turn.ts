import type { TokenUsage } from "../../agents/events.js";
import type { FirstTurn } from "./first-turn.js";
import { sseData } from "./sse.js";

// OpenAI's Responses API answer (what Codex CLI asks for): a response whose `output` is a list of items.
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

// Cached input is part of `input_tokens` on this wire: a cache read, the rest plain input.
function tokensOf(usage: Json): TokenUsage {
  const details = isObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const cached = num(details.cached_tokens);
  return {
    inputTokens: Math.max(0, num(usage.input_tokens) - cached),
    outputTokens: num(usage.output_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

function argumentsOf(raw: unknown): Record<string, unknown> {
  if (isObject(raw)) return raw;
  try {
    const parsed: unknown = JSON.parse(str(raw));
    return isObject(parsed) ? parsed : { arguments: raw };
  } catch {
    return { arguments: raw };
  }
}

// Reasoning is neither an answer nor a call; every other item that is not a message is a call of some tool (a
// function, a custom tool, a local shell, a web search, …), named by its name or, for the built-in ones, its type.
function callOf(item: Json): FirstTurn["calls"][number] | undefined {
  const type = str(item.type);
  if (type === "message" || type === "reasoning") return undefined;
  if (type === "function_call") return { name: str(item.name), input: argumentsOf(item.arguments) };
  if (type === "custom_tool_call") return { name: str(item.name), input: { input: item.input } };
  if (type === "local_shell_call")
    return { name: "local_shell", input: isObject(item.action) ? item.action : {} };
  return { name: str(item.name) || type || "unknown", input: isObject(item.action) ? item.action : {} };
}

function textOf(item: Json): string[] {
  if (item.type !== "message" || !Array.isArray(item.content)) return [];
  return item.content.flatMap((part) =>
    isObject(part) && part.type === "output_text" && typeof part.text === "string" && part.text
      ? [part.text]
      : [],
  );
}

function turnOf(items: readonly Json[], model: string, usage: unknown): FirstTurn {
  return {
    ...(model ? { model } : {}),
    ...(isObject(usage) ? { usage: tokensOf(usage) } : {}),
    text: items.flatMap(textOf).join("\n"),
    calls: items.flatMap((item) => {
      const call = callOf(item);
      return call ? [call] : [];
    }),
  };
}

// An error names its message in `error.message`, or (a stream's `error` event) in its own `message`.
function failure(response: Json, fallback: string): Error {
  const error = isObject(response.error) ? response.error : {};
  return new Error(str(error.message) || str(response.message) || fallback);
}

// The streamed answer (server-sent events): each finished item (`response.output_item.done`), and the final response
// for the model, the tokens, and the items when no event gave them one by one.
function fromEvents(text: string): FirstTurn {
  const items: Json[] = [];
  let response: Json = {};
  for (const data of sseData(text)) {
    if (data === "[DONE]") continue;
    const parsed = JSON.parse(data) as Json;
    const type = str(parsed.type);
    if (type === "error") throw failure(parsed, "the stream ended in an error");
    if (type === "response.failed")
      throw failure(isObject(parsed.response) ? parsed.response : {}, "the response failed");
    if (type === "response.output_item.done" && isObject(parsed.item))
      items[typeof parsed.output_index === "number" ? parsed.output_index : items.length] = parsed.item;
    if (
      (type === "response.created" || type === "response.completed" || type === "response.incomplete") &&
      isObject(parsed.response)
    )
      response = { ...response, ...parsed.response };
  }
  // Only objects are put in `items`; an index no event filled is a hole, which turnOf's flatMap skips.
  const output = Array.isArray(response.output) ? response.output.filter(isObject) : [];
  return turnOf(items.length > 0 ? items : output, str(response.model), response.usage);
}

/** The first turn of an OpenAI Responses answer, streamed (SSE) or whole (JSON). */
export function readOpenAiTurn(contentType: string, text: string): FirstTurn {
  if (contentType.includes("text/event-stream")) return fromEvents(text);
  const response = JSON.parse(text) as Json;
  if (response.status === "failed") throw failure(response, "the response failed");
  const output = Array.isArray(response.output) ? response.output.filter(isObject) : [];
  return turnOf(output, str(response.model), response.usage);
}
