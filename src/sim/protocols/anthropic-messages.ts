import type { IncomingHttpHeaders } from "node:http";
import { REPLAY_HEADER, replayOfHeader } from "../../contracts/run-marker.js";
import {
  type Conversation,
  conversationOf,
  firstPrompt,
  sessionOf,
  type TextMessage,
} from "../conversation.js";
import { estimateTokens, SIM_MODEL } from "../encode.js";
import type { SimReply } from "../model.js";
import type { ContentBlock } from "../plan.js";
import { type HttpAnswer, jsonAnswer, type Protocol, type WireRequest } from "./protocol.js";

// Anthropic's Messages API (`/v1/messages`, streaming or not, and `count_tokens`): what Claude Code and the
// anthropic judge backend speak.
interface Block {
  type?: string;
  text?: string;
  content?: unknown;
}

interface Message {
  role?: string;
  content?: string | Block[];
}

export interface MessagesRequest {
  model?: string;
  system?: string | Block[];
  messages?: Message[];
  tools?: unknown[];
  stream?: boolean;
}

interface Usage {
  input_tokens: number;
  output_tokens: number;
}

function textsOf(content: string | Block[] | undefined): string[] {
  if (content === undefined) return [];
  if (typeof content === "string") return [content];
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block.text === "string") texts.push(block.text);
    else if (block.type === "tool_result") {
      const inner = block.content;
      if (typeof inner === "string") texts.push(inner);
      else if (Array.isArray(inner)) texts.push(...textsOf(inner as Block[]));
    }
  }
  return texts;
}

function textMessages(request: MessagesRequest): TextMessage[] {
  return (request.messages ?? []).map((m) => ({
    role: m.role,
    texts: textsOf(m.content),
    ...(Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result")
      ? { toolResult: true }
      : {}),
  }));
}

export function readConversation(request: MessagesRequest): Conversation {
  return conversationOf({
    system: textsOf(request.system),
    messages: textMessages(request),
    hasTools: Array.isArray(request.tools) && request.tools.length > 0,
    model: request.model,
    marksToolResults: true,
  });
}

/** The system prompt and the user's first prompt: where a judge prompt carries its marker. */
function promptText(request: MessagesRequest): string {
  return [...textsOf(request.system), firstPrompt(textMessages(request))].join("\n");
}

function baseMessage(id: string) {
  return { id, type: "message", role: "assistant", model: SIM_MODEL, stop_sequence: null };
}

function stopReason(content: ContentBlock[]): string {
  return content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

function messageJson(id: string, content: ContentBlock[], usage: Usage): object {
  return { ...baseMessage(id), content, stop_reason: stopReason(content), usage };
}

// The streaming protocol: message_start, a start/delta/stop triple per block, message_delta, stop.
function messageEvents(id: string, content: ContentBlock[], usage: Usage): string {
  const events: string[] = [];
  const emit = (type: string, data: object) =>
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  emit("message_start", {
    message: {
      ...baseMessage(id),
      content: [],
      stop_reason: null,
      usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
    },
  });
  content.forEach((block, index) => {
    if (block.type === "text") {
      emit("content_block_start", { index, content_block: { type: "text", text: "" } });
      emit("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else {
      emit("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      emit("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    emit("content_block_stop", { index });
  });
  emit("message_delta", {
    delta: { stop_reason: stopReason(content), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  emit("message_stop", {});
  return events.join("");
}

function errorType(status: number): string {
  if (status === 429) return "rate_limit_error";
  if (status === 529) return "overloaded_error";
  if (status === 401) return "authentication_error";
  return "api_error";
}

/** `/v1/messages/count_tokens`: the request's estimate, nothing more. */
export function countTokens(body: string): HttpAnswer {
  return jsonAnswer(200, { input_tokens: estimateTokens(body) });
}

export const anthropicMessages: Protocol = {
  plainAction: "side-request",
  read(body: string, headers: IncomingHttpHeaders): WireRequest {
    const request = JSON.parse(body) as MessagesRequest;
    const { replayed, ...replay } = replayOfHeader(headers[REPLAY_HEADER]);
    const conversation = { ...readConversation(request), ...(replayed ? { replay } : {}) };
    return {
      request: {
        conversation,
        judgeText: promptText(request),
        session: sessionOf(headers["x-claude-code-session-id"], conversation.prompt),
      },
      stream: Boolean(request.stream),
      inputTokens: estimateTokens(body),
    };
  },
  write(reply: SimReply, wire: WireRequest, n: number): HttpAnswer {
    const id = `msg_sim_${n}`;
    const usage = { input_tokens: wire.inputTokens, output_tokens: reply.outputTokens };
    if (!wire.stream) return jsonAnswer(200, messageJson(id, reply.content, usage));
    return {
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      body: messageEvents(id, reply.content, usage),
    };
  },
  error(status: number): HttpAnswer {
    const type = errorType(status);
    return jsonAnswer(status, {
      type: "error",
      error: { type, message: `Simulated ${status} (${type}) from skillgym sim` },
    });
  },
};
