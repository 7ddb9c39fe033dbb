import type { AgentEvent, TokenUsage } from "../events.js";
import { isObject, type Json } from "../json-lines.js";
import { costOf } from "../pricing.js";
import { usageFromStream } from "../stream-usage.js";
import { acpSkillLoad } from "./skill-load.js";
import { type AcpToolCall, inputOf, mergeToolCall, toolKindOf } from "./tool-call.js";

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** How a prompt turn ended: the agent's `session/prompt` response, or the error it answered with. */
export type PromptEnd = { response: Json } | { error: { code?: number; message: string } };

export interface AcpEventMapper {
  /** The events of one `session/update` notification's `update`. */
  update(update: Json): AgentEvent[];
  /** The events of a permission request's tool call: a call first seen there is recorded before it runs. */
  permission(toolCall: Json): AgentEvent[];
  /** The run's `result`, from the prompt's end. */
  finish(end: PromptEnd): AgentEvent[];
}

export interface MapperOptions {
  /** The skills the run's workspace and home hold: a skill tool's bare title is read against them. */
  skills?: readonly string[];
  /** The model a run's tokens are priced as, when the agent names none. */
  model?: string | undefined;
}

/** ACP's token usage (a prompt response's `usage`, Qwen Code's per-answer `_meta.usage`) under our names. */
export function acpUsage(value: unknown): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const input = num(value.inputTokens);
  const output = num(value.outputTokens);
  if (input === undefined && output === undefined) return undefined;
  const cacheRead = num(value.cachedReadTokens) ?? 0;
  const cacheWrite = num(value.cachedWriteTokens) ?? 0;
  return {
    // Input counts every prompt token, as OpenAI's does; the cached ones are counted apart.
    inputTokens: Math.max(0, (input ?? 0) - cacheRead - cacheWrite),
    outputTokens: output ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

// Gemini CLI's prompt response: `_meta.quota.token_count` for the turn, and per model in `model_usage`.
function geminiQuota(meta: unknown): { usage: TokenUsage; models: [string, TokenUsage][] } | undefined {
  if (!isObject(meta) || !isObject(meta.quota) || !isObject(meta.quota.token_count)) return undefined;
  const tokens = (count: Json): TokenUsage => ({
    inputTokens: num(count.input_tokens) ?? 0,
    outputTokens: num(count.output_tokens) ?? 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
  // Stryker disable next-line ArrayDeclaration: equivalent, an entry that is no object is skipped below
  const models = (Array.isArray(meta.quota.model_usage) ? meta.quota.model_usage : []).flatMap((entry) =>
    isObject(entry) && typeof entry.model === "string" && isObject(entry.token_count)
      ? [[entry.model, tokens(entry.token_count)] as [string, TokenUsage]]
      : [],
  );
  return { usage: tokens(meta.quota.token_count), models };
}

/** The HTTP status an agent's error names: a JSON-RPC code that is one (Gemini CLI's), or one quoted in its message. */
export function errorStatus(code: number | undefined, message: string): number | undefined {
  if (code !== undefined && code >= 400 && code <= 599) return code;
  const quoted = /"code"\s*:\s*(\d{3})/.exec(message);
  if (quoted) return Number(quoted[1]);
  const bare = /\b(401|403|429|5\d\d)\b/.exec(message);
  return bare ? Number(bare[1]) : undefined;
}

/**
 * Reads one ACP session's updates into normalised events. Stateful: a tool call arrives in pieces (`tool_call`, its
 * updates, a permission request), so what is known of each is merged; its `tool_use` is recorded once it says what
 * it does, its `skill_load` once it names a skill, its `tool_result` when it completes or fails. A model answer begins
 * with the first message or tool call after a tool finished.
 */
export function createAcpMapper(options: MapperOptions = {}): AcpEventMapper {
  const skills = options.skills;
  const calls = new Map<string, AcpToolCall>();
  const recorded = new Set<string>();
  const loaded = new Set<string>();
  const finished = new Set<string>();
  const streamed: AgentEvent[] = [];
  let turn = 0;
  let inTurn = false;
  let answer = "";
  let costUsd: number | undefined;

  const answerBegins = () => {
    if (inTurn) return;
    inTurn = true;
    turn += 1;
    answer = "";
  };

  function toolEvents(raw: Json, fromPermission: boolean): AgentEvent[] {
    const id = str(raw.toolCallId);
    const call = mergeToolCall(calls.get(id), raw);
    calls.set(id, call);
    const events: AgentEvent[] = [];
    const ready =
      fromPermission ||
      (call.status !== undefined && call.status !== "pending") ||
      Object.keys(call.input).length > 0 ||
      call.paths.length > 0;
    if (ready && !recorded.has(id)) {
      recorded.add(id);
      answerBegins();
      events.push({
        kind: "tool_use",
        id,
        name: call.name ?? call.kind ?? "tool",
        input: inputOf(call),
        messageId: `turn-${turn}`,
        tool: toolKindOf(call),
      });
    }
    if (recorded.has(id) && !loaded.has(id)) {
      const load = acpSkillLoad(call, skills);
      if (load) {
        loaded.add(id);
        events.push({ kind: "skill_load", skill: load.skill, via: load.via, toolUseId: id });
      }
    }
    if (recorded.has(id) && !finished.has(id) && (call.status === "completed" || call.status === "failed")) {
      finished.add(id);
      inTurn = false;
      events.push({
        kind: "tool_result",
        toolUseId: id,
        isError: call.status === "failed",
        content: call.output,
      });
    }
    return events;
  }

  function chunkUsage(update: Json): AgentEvent[] {
    const usage = acpUsage(isObject(update._meta) ? update._meta.usage : undefined);
    if (!usage) return [];
    // A model answer's usage comes at its end, maybe before its tool calls said what they do.
    answerBegins();
    const event: AgentEvent = { kind: "usage", phase: "start", usage, messageId: `turn-${turn}` };
    streamed.push(event);
    return [event];
  }

  function update(update: Json): AgentEvent[] {
    const type = str(update.sessionUpdate);
    if (type === "agent_message_chunk") {
      const content = isObject(update.content) ? update.content : {};
      const text = content.type === "text" ? str(content.text) : "";
      const events: AgentEvent[] = [];
      if (text) {
        answerBegins();
        answer += text;
        events.push({ kind: "text", text, messageId: str(update.messageId) || `turn-${turn}` });
      }
      return [...events, ...chunkUsage(update)];
    }
    if (type === "tool_call" || type === "tool_call_update") return toolEvents(update, false);
    if (type === "usage_update") {
      const cost = isObject(update.cost) ? update.cost : undefined;
      if (cost && str(cost.currency).toUpperCase() === "USD" && num(cost.amount) !== undefined)
        costUsd = num(cost.amount);
      return [{ kind: "unknown", type }];
    }
    return [{ kind: "unknown", type: type || "untyped" }];
  }

  function price(usage: TokenUsage | undefined, models: [string, TokenUsage][]): number | undefined {
    if (costUsd !== undefined) return costUsd;
    if (models.length > 0) {
      let total = 0;
      for (const [model, tokens] of models) {
        const cost = costOf(model, tokens);
        if (cost === undefined) return undefined;
        total += cost;
      }
      return total;
    }
    return usage && options.model ? costOf(options.model, usage) : undefined;
  }

  function finish(end: PromptEnd): AgentEvent[] {
    if ("error" in end) {
      const message = end.error.message;
      const status = errorStatus(end.error.code, message);
      const usage = usageFromStream(streamed);
      return [
        {
          kind: "result",
          isError: true,
          subtype: "error",
          text: message,
          numTurns: turn,
          ...(usage ? { usage } : {}),
          ...(status !== undefined ? { apiErrorStatus: status } : {}),
        },
      ];
    }
    const response = end.response;
    const stopReason = str(response.stopReason) || "end_turn";
    const quota = geminiQuota(response._meta);
    const usage = acpUsage(response.usage) ?? quota?.usage ?? usageFromStream(streamed);
    // No usage reported: the cost is unknown, never $0.
    const cost = usage ? price(usage, quota?.models ?? []) : undefined;
    return [
      {
        kind: "result",
        isError: stopReason === "refusal" || stopReason === "max_turn_requests",
        subtype: stopReason,
        text: answer,
        numTurns: turn,
        ...(usage ? { usage } : {}),
        ...(cost !== undefined ? { costUsd: cost } : {}),
      },
    ];
  }

  return { update, permission: (toolCall) => toolEvents(toolCall, true), finish };
}
