import type { AgentEvent, TokenUsage, ToolKind } from "../events.js";
import { isObject, type Json, jsonLineObject } from "../json-lines.js";
import { costOf } from "../pricing.js";
import { geminiSkillLoad } from "./skill-load.js";

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

const TOOL_KINDS: Record<string, ToolKind> = {
  run_shell_command: "shell",
  read_file: "read",
  read_many_files: "read",
  write_file: "write",
  replace: "edit",
  list_directory: "search",
  glob: "search",
  grep_search: "search",
  search_file_content: "search",
  google_web_search: "search",
  activate_skill: "skill",
};

function usageOf(stats: Json): TokenUsage {
  const cached = num(stats.cached) ?? 0;
  const input = num(stats.input) ?? Math.max(0, (num(stats.input_tokens) ?? 0) - cached);
  return {
    inputTokens: input,
    outputTokens: num(stats.output_tokens) ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

// The run's cost: each model's tokens at its price; undefined when any model's price is unknown.
function runCost(stats: Json): number | undefined {
  if (!isObject(stats.models)) return undefined;
  let total = 0;
  for (const [model, modelStats] of Object.entries(stats.models)) {
    if (!isObject(modelStats)) continue;
    const cost = costOf(model, usageOf(modelStats));
    if (cost === undefined) return undefined;
    total += cost;
  }
  return total;
}

/** The HTTP status an API error names: Gemini CLI quotes the API's error JSON, or its message, in its own. */
export function apiErrorStatus(message: string): number | undefined {
  const quoted = /"code"\s*:\s*(\d{3})/.exec(message);
  if (quoted) return Number(quoted[1]);
  const bare = /\b(401|403|429|5\d\d)\b/.exec(message);
  return bare ? Number(bare[1]) : undefined;
}

/**
 * A parser of one run's `gemini --output-format stream-json` lines. Stateful: the stream has no message ids, no turn
 * count and no final text in its `result`, so they are followed across lines (a model answer begins after a tool result).
 */
export function createGeminiStreamParser(): (line: string) => AgentEvent[] {
  let turn = 0;
  let inTurn = false;
  let answerText = "";

  const answerBegins = () => {
    if (inTurn) return;
    inTurn = true;
    turn += 1;
    answerText = "";
  };

  function toolUse(data: Json): AgentEvent[] {
    answerBegins();
    const name = str(data.tool_name);
    const input = isObject(data.parameters) ? data.parameters : {};
    const id = str(data.tool_id);
    const events: AgentEvent[] = [
      { kind: "tool_use", id, name, input, messageId: `turn-${turn}`, tool: TOOL_KINDS[name] ?? "other" },
    ];
    const load = geminiSkillLoad({ name, input });
    if (load) events.push({ kind: "skill_load", skill: load.skill, via: load.via, toolUseId: id });
    return events;
  }

  function result(data: Json): AgentEvent[] {
    const stats = isObject(data.stats) ? data.stats : {};
    const error = isObject(data.error) ? data.error : undefined;
    const isError = data.status !== "success";
    const errorText = error ? str(error.message) : "";
    const status = isError ? apiErrorStatus(errorText) : undefined;
    const usage = usageOf(stats);
    const costUsd = runCost(stats);
    return [
      {
        kind: "result",
        isError,
        subtype: str(data.status) || "unknown",
        text: isError ? errorText || answerText : answerText,
        numTurns: turn,
        ...(num(stats.duration_ms) !== undefined ? { durationMs: num(stats.duration_ms) } : {}),
        ...(costUsd !== undefined ? { costUsd } : {}),
        usage,
        ...(status !== undefined ? { apiErrorStatus: status } : {}),
      },
    ];
  }

  return (line) => {
    const data = jsonLineObject(line);
    if (Array.isArray(data)) return data;
    const type = str(data.type);
    if (type === "init") {
      return [
        {
          kind: "init",
          model: str(data.model),
          tools: [],
          skills: [],
          ...(typeof data.session_id === "string" ? { sessionId: data.session_id } : {}),
        },
      ];
    }
    if (type === "message" && data.role === "assistant") {
      answerBegins();
      const text = str(data.content);
      answerText += text;
      return [{ kind: "text", text, messageId: `turn-${turn}` }];
    }
    if (type === "message") return [{ kind: "unknown", type: `message:${str(data.role)}` }];
    if (type === "tool_use") return toolUse(data);
    if (type === "tool_result") {
      inTurn = false;
      const error = isObject(data.error) ? str(data.error.message) : "";
      return [
        {
          kind: "tool_result",
          toolUseId: str(data.tool_id),
          isError: data.status !== "success",
          content: str(data.output) || error,
        },
      ];
    }
    if (type === "result") return result(data);
    return [{ kind: "unknown", type: type || "untyped" }];
  };
}

/** A stored transcript.jsonl as normalised events. */
export function parseGeminiTranscript(text: string): AgentEvent[] {
  const parse = createGeminiStreamParser();
  return text.split("\n").flatMap(parse);
}
