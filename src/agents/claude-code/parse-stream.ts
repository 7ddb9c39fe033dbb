import type { AgentEvent, TokenUsage } from "../events.js";
import { isObject, type Json, jsonLineObject } from "../json-lines.js";

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

function usageOf(v: unknown): TokenUsage | undefined {
  if (!isObject(v)) return undefined;
  return {
    inputTokens: num(v.input_tokens) ?? 0,
    outputTokens: num(v.output_tokens) ?? 0,
    cacheReadTokens: num(v.cache_read_input_tokens) ?? 0,
    cacheWriteTokens: num(v.cache_creation_input_tokens) ?? 0,
  };
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c) => (isObject(c) ? str(c.text) : "")).join("");
  return "";
}

function contentEvents(message: Json, role: string): AgentEvent[] {
  const content = message.content;
  const messageId = typeof message.id === "string" ? message.id : undefined;
  if (typeof content === "string")
    return role === "assistant" ? [{ kind: "text", text: content, messageId }] : [];
  if (!Array.isArray(content)) return [];
  const events: AgentEvent[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (role === "assistant" && block.type === "text")
      events.push({ kind: "text", text: str(block.text), messageId });
    else if (role === "assistant" && block.type === "tool_use") {
      events.push({
        kind: "tool_use",
        id: str(block.id),
        name: str(block.name),
        input: isObject(block.input) ? block.input : {},
        messageId,
      });
    } else if (block.type === "tool_result") {
      events.push({
        kind: "tool_result",
        toolUseId: str(block.tool_use_id),
        isError: block.is_error === true,
        content: resultText(block.content),
      });
    }
  }
  return events;
}

// `--include-partial-messages` lines: only the usage of message_start and message_delta is kept.
function streamEvent(event: unknown): AgentEvent[] {
  if (!isObject(event)) return [{ kind: "unknown", type: "stream_event" }];
  if (event.type === "message_start" && isObject(event.message)) {
    const usage = usageOf(event.message.usage);
    const messageId = typeof event.message.id === "string" ? event.message.id : undefined;
    if (usage) return [{ kind: "usage", phase: "start", usage, ...(messageId ? { messageId } : {}) }];
  }
  if (event.type === "message_delta") {
    const usage = usageOf(event.usage);
    if (usage) return [{ kind: "usage", phase: "delta", usage }];
  }
  return [{ kind: "unknown", type: "stream_event" }];
}

/** Turns one line of `claude --output-format stream-json --verbose` into events; unknown lines are tolerated. */
export function parseStreamLine(line: string): AgentEvent[] {
  const data = jsonLineObject(line);
  if (Array.isArray(data)) return data;
  const type = str(data.type);
  if (type === "system" && data.subtype === "init") {
    const strings = (v: unknown) =>
      Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
    return [
      {
        kind: "init",
        model: str(data.model),
        tools: strings(data.tools),
        skills: strings(data.skills),
        sessionId: typeof data.session_id === "string" ? data.session_id : undefined,
        version: typeof data.claude_code_version === "string" ? data.claude_code_version : undefined,
      },
    ];
  }
  if ((type === "assistant" || type === "user") && isObject(data.message))
    return contentEvents(data.message, type);
  if (type === "stream_event") return streamEvent(data.event);
  if (type === "result") {
    return [
      {
        kind: "result",
        isError: data.is_error === true,
        subtype: str(data.subtype),
        text:
          str(data.result) ||
          (Array.isArray(data.errors)
            ? data.errors.filter((e): e is string => typeof e === "string").join("; ")
            : ""),
        numTurns: num(data.num_turns),
        durationMs: num(data.duration_ms),
        costUsd: num(data.total_cost_usd),
        usage: usageOf(data.usage),
        apiErrorStatus: num(data.api_error_status),
      },
    ];
  }
  return [{ kind: "unknown", type: type || "untyped" }];
}
