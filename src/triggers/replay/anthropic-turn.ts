import type { TokenUsage } from "../../agents/events.js";
import type { FirstTurn } from "./first-turn.js";
import { sseData } from "./sse.js";

interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

const tokensOf = (usage: Usage): TokenUsage => ({
  inputTokens: usage.input_tokens ?? 0,
  outputTokens: usage.output_tokens ?? 0,
  cacheReadTokens: usage.cache_read_input_tokens ?? 0,
  cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
});

interface Block {
  type?: string;
  text?: string;
  name?: string;
  input?: Record<string, unknown>;
}

function turnOf(blocks: readonly Block[], model?: string, usage?: Usage): FirstTurn {
  return {
    ...(model ? { model } : {}),
    ...(usage ? { usage: tokensOf(usage) } : {}),
    text: blocks.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n"),
    calls: blocks.flatMap((b) =>
      b.type === "tool_use" && b.name ? [{ name: b.name, input: b.input ?? {} }] : [],
    ),
  };
}

// The streamed answer (server-sent events) put back together: each block's start, its deltas, its stop.
function fromEvents(text: string): FirstTurn {
  const blocks: Block[] = [];
  const json = new Map<number, string>();
  let model: string | undefined;
  let usage: Usage | undefined;
  for (const data of sseData(text)) {
    const parsed = JSON.parse(data) as {
      type?: string;
      index?: number;
      content_block?: Block;
      delta?: { type?: string; text?: string; partial_json?: string };
      error?: { message?: string };
      message?: { model?: string; usage?: Usage };
      usage?: Usage;
    };
    const index = parsed.index ?? 0;
    if (parsed.type === "error") throw new Error(parsed.error?.message ?? "the stream ended in an error");
    if (parsed.type === "message_start") {
      model = parsed.message?.model;
      usage = { ...parsed.message?.usage };
    }
    if (parsed.type === "message_delta" && parsed.usage) usage = { ...usage, ...parsed.usage };
    if (parsed.type === "content_block_start" && parsed.content_block)
      blocks[index] = { ...parsed.content_block };
    else if (parsed.type === "content_block_delta" && parsed.delta) {
      const block = blocks[index];
      if (parsed.delta.type === "text_delta" && block)
        block.text = (block.text ?? "") + (parsed.delta.text ?? "");
      if (parsed.delta.type === "input_json_delta")
        json.set(index, (json.get(index) ?? "") + (parsed.delta.partial_json ?? ""));
    }
  }
  for (const [index, partial] of json) {
    const block = blocks[index];
    if (block) block.input = partial ? (JSON.parse(partial) as Record<string, unknown>) : {};
  }
  // A block that never started is a hole in the list, which turnOf's flatMap skips.
  return turnOf(blocks, model, usage);
}

/** The first turn of an Anthropic Messages answer, streamed (SSE) or whole (JSON). */
export function readAnthropicTurn(contentType: string, text: string): FirstTurn {
  if (contentType.includes("text/event-stream")) return fromEvents(text);
  const message = JSON.parse(text) as { content?: Block[]; model?: string; usage?: Usage };
  return turnOf(message.content ?? [], message.model, message.usage);
}
