import type { SimJudge } from "../contracts/sim-script.js";
import { estimateTokens, SIM_MODEL } from "./encode.js";
import { judgeAnswer } from "./judge-answer.js";
import type { JudgeKind } from "./judge-markers.js";

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

// An OpenAI-compatible `/v1/chat/completions` answer (non-streaming), so the openai judge backend runs offline too.
export function chatCompletion(
  id: string,
  body: string,
  judge: SimJudge | undefined,
): { response: object; kind: JudgeKind | undefined } {
  const request = JSON.parse(body) as ChatCompletionRequest;
  if (!Array.isArray(request.messages)) throw new Error("messages: required, an array");
  const text = request.messages
    .filter((m) => m.role === "system" || m.role === "user")
    .map(messageText)
    .join("\n");
  const answer = judgeAnswer(text, judge);
  const content = answer?.text ?? "Simulated answer.";
  const usage = { prompt_tokens: estimateTokens(body), completion_tokens: estimateTokens(content) };
  return {
    kind: answer?.kind,
    response: {
      id,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: SIM_MODEL,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}
