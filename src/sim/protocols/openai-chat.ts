import { estimateTokens, SIM_MODEL } from "../encode.js";
import type { SimReply } from "../model.js";
import { type HttpAnswer, jsonAnswer, type Protocol, type WireRequest } from "./protocol.js";

// OpenAI's `/v1/chat/completions` (non-streaming), so the openai judge backend runs offline too. Only judges speak
// it today: every request is one prompt to answer, never an agent's turn.
interface ChatMessage {
  role?: string;
  content?: string | { type?: string; text?: string }[] | null;
}

export interface ChatCompletionRequest {
  model?: string;
  messages?: ChatMessage[];
}

function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part.text === "string" ? part.text : "")).join("\n");
}

function replyText(reply: SimReply): string {
  return reply.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

export const openaiChat: Protocol = {
  plainAction: "chat-completion",
  read(body: string): WireRequest {
    const request = JSON.parse(body) as ChatCompletionRequest;
    if (!Array.isArray(request.messages)) throw new Error("messages: required, an array");
    const judgeText = request.messages
      .filter((m) => m.role === "system" || m.role === "user")
      .map(messageText)
      .join("\n");
    const conversation = {
      prompt: "",
      cwd: undefined,
      skills: [],
      turn: 0,
      hasTools: false,
      model: request.model ?? "unknown",
    };
    return {
      request: { conversation, judgeText, session: "chat-completions" },
      // Stryker disable next-line BooleanLiteral: equivalent, a chat completion is never streamed, whatever the flag
      stream: false,
      inputTokens: estimateTokens(body),
    };
  },
  write(reply: SimReply, wire: WireRequest, n: number): HttpAnswer {
    const content = replyText(reply);
    const usage = { prompt_tokens: wire.inputTokens, completion_tokens: estimateTokens(content) };
    return jsonAnswer(200, {
      id: `chatcmpl-sim-${n}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: SIM_MODEL,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  },
  error(status: number): HttpAnswer {
    return jsonAnswer(status, {
      error: { type: "server_error", message: `Simulated ${status} from skillgym sim`, code: status },
    });
  },
};
