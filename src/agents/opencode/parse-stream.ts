import type { AgentEvent, TokenUsage, ToolKind } from "../events.js";
import { isObject, type Json, jsonLineObject } from "../json-lines.js";
import { openCodeSkillLoad } from "./skills.js";

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

const TOOL_KINDS: Record<string, ToolKind> = {
  bash: "shell",
  read: "read",
  write: "write",
  edit: "edit",
  patch: "edit",
  multiedit: "edit",
  glob: "search",
  grep: "search",
  list: "search",
  webfetch: "search",
  websearch: "search",
  codesearch: "search",
  skill: "skill",
};

/** A `step_finish` part's tokens under our names; reasoning is billed as output. */
export function openCodeUsage(tokens: unknown): TokenUsage {
  const t = isObject(tokens) ? tokens : {};
  const cache = isObject(t.cache) ? t.cache : {};
  return {
    inputTokens: num(t.input),
    outputTokens: num(t.output) + num(t.reasoning),
    cacheReadTokens: num(cache.read),
    cacheWriteTokens: num(cache.write),
  };
}

function add(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/**
 * Reads `opencode run --format json` line by line into normalised events. Stateful: the stream has no init and no
 * final result line, so the first line starts the run and the `step_finish` that ends no tool calls ends it, with the
 * tokens of every step added up. A tool call appears only once it finished: its call and its result come together.
 */
export function createOpenCodeParser(): (line: string) => AgentEvent[] {
  let started = false;
  let steps = 0;
  let lastText = "";
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  function toolEvents(part: Json): AgentEvent[] {
    const state = isObject(part.state) ? part.state : {};
    const name = str(part.tool);
    const id = str(part.callID) || str(part.id);
    const input = isObject(state.input) ? state.input : {};
    const call: AgentEvent = {
      kind: "tool_use",
      id,
      name,
      input,
      messageId: str(part.messageID),
      tool: TOOL_KINDS[name] ?? "other",
    };
    const load = openCodeSkillLoad(name, input);
    const failed = state.status === "error";
    return [
      call,
      ...(load ? [{ kind: "skill_load" as const, skill: load.skill, via: load.via, toolUseId: id }] : []),
      {
        kind: "tool_result",
        toolUseId: id,
        isError: failed,
        content: failed ? str(state.error) : str(state.output),
      },
    ];
  }

  function stepFinish(part: Json): AgentEvent[] {
    const step = openCodeUsage(part.tokens);
    usage = add(usage, step);
    const events: AgentEvent[] = [
      { kind: "usage", phase: "start", usage: step, messageId: str(part.messageID) },
    ];
    const reason = str(part.reason);
    if (reason === "tool-calls") return events;
    events.push({
      kind: "result",
      isError: false,
      subtype: reason || "stop",
      text: lastText,
      numTurns: steps,
      usage,
    });
    return events;
  }

  function error(data: Json): AgentEvent[] {
    const err = isObject(data.error) ? data.error : {};
    const details = isObject(err.data) ? err.data : {};
    const status = num(details.statusCode) || undefined;
    return [
      {
        kind: "result",
        isError: true,
        subtype: str(err.name) || "error",
        text: str(details.message) || str(err.message) || str(err.name),
        numTurns: steps,
        usage,
        ...(status !== undefined ? { apiErrorStatus: status } : {}),
      },
    ];
  }

  return (line) => {
    const data = jsonLineObject(line);
    if (Array.isArray(data)) return data;
    const type = str(data.type);
    const part = isObject(data.part) ? data.part : {};
    const events: AgentEvent[] = [];
    if (!started) {
      started = true;
      const sessionId = str(data.sessionID);
      events.push({ kind: "init", model: "", tools: [], skills: [], ...(sessionId ? { sessionId } : {}) });
    }
    if (type === "step_start") {
      steps++;
      return events;
    }
    if (type === "text") {
      lastText = str(part.text);
      return [...events, { kind: "text", text: lastText, messageId: str(part.messageID) }];
    }
    if (type === "tool_use") return [...events, ...toolEvents(part)];
    if (type === "step_finish") return [...events, ...stepFinish(part)];
    if (type === "error") return [...events, ...error(data)];
    return [...events, { kind: "unknown", type: type || "untyped" }];
  };
}

/** A stored transcript.jsonl of an OpenCode run as normalised events. */
export function parseOpenCodeTranscript(text: string): AgentEvent[] {
  const parse = createOpenCodeParser();
  return text.split("\n").flatMap(parse);
}
