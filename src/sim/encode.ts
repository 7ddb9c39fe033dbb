import { SIM_MODEL } from "../contracts/sim-model.js";
import type { ContentBlock } from "./plan.js";

export { SIM_MODEL };

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function baseMessage(id: string) {
  return { id, type: "message", role: "assistant", model: SIM_MODEL, stop_sequence: null };
}

function stopReason(content: ContentBlock[]): string {
  return content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

export function messageJson(id: string, content: ContentBlock[], usage: Usage): object {
  return { ...baseMessage(id), content, stop_reason: stopReason(content), usage };
}

// The Messages API streaming protocol: message_start, a start/delta/stop triple per block, message_delta, stop.
export function messageEvents(id: string, content: ContentBlock[], usage: Usage): string {
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

export function errorJson(status: number): object {
  const type =
    status === 429
      ? "rate_limit_error"
      : status === 529
        ? "overloaded_error"
        : status === 401
          ? "authentication_error"
          : "api_error";
  return { type: "error", error: { type, message: `Simulated ${status} (${type}) from skillgym sim` } };
}
