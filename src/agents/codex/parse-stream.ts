import type { AgentEvent, TokenUsage, ToolKind } from "../events.js";
import { isObject, type Json, jsonLineObject } from "../json-lines.js";
import { programsOf, skillReadBy } from "./skill-load.js";

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

const READ_PROGRAMS = new Set(["cat", "sed", "head", "tail", "less", "more", "nl", "bat", "batcat", "wc"]);
const SEARCH_PROGRAMS = new Set(["rg", "grep", "find", "ls", "fd", "tree", "git-grep"]);

/** A shell command's kind: a plain read or search (as Codex itself parses them), else shell. */
export function commandKind(command: string): ToolKind {
  const programs = programsOf(command);
  if (programs.length === 0) return "shell";
  if (programs.every((p) => READ_PROGRAMS.has(p))) return "read";
  if (programs.every((p) => SEARCH_PROGRAMS.has(p) || READ_PROGRAMS.has(p))) return "search";
  return "shell";
}

/** Codex's `turn.completed` usage under our names: cached input is a cache read, the rest plain input. */
export function codexUsage(v: unknown): TokenUsage {
  const usage = isObject(v) ? v : {};
  const cached = num(usage.cached_input_tokens);
  return {
    inputTokens: Math.max(0, num(usage.input_tokens) - cached),
    outputTokens: num(usage.output_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: num(usage.cache_write_input_tokens),
  };
}

/** The HTTP status an error message of Codex names ("last status: 429 …", "unexpected status 529 …"). */
export function statusIn(message: string): number | undefined {
  const match = /status:?\s+(\d{3})\b/i.exec(message);
  return match ? Number(match[1]) : undefined;
}

function fileChangeKind(item: Json): ToolKind {
  // Stryker disable next-line ArrayDeclaration: equivalent, a change that is no object is no add
  const changes = Array.isArray(item.changes) ? item.changes : [];
  return changes.length > 0 && changes.every((c) => isObject(c) && c.kind === "add") ? "write" : "edit";
}

/**
 * Reads `codex exec --json` line by line into normalised events. Stateful: a tool call is announced at
 * `item.started` (so an early stop acts before the command runs) and answered at `item.completed`, and the model
 * responses are counted, since Codex's stream names none: an item after a finished tool call starts a new one.
 */
export function createCodexParser(): (line: string) => AgentEvent[] {
  const started = new Set<string>();
  let response = 0;
  let toolFinished = true;
  let turns = 0;
  let lastText = "";
  const messageId = () => {
    if (toolFinished) {
      response++;
      turns++;
      toolFinished = false;
    }
    return `response_${response}`;
  };

  function toolUse(item: Json): AgentEvent[] {
    const id = str(item.id);
    if (started.has(id)) return [];
    started.add(id);
    const type = str(item.type);
    const base = { kind: "tool_use" as const, id, messageId: messageId() };
    if (type === "command_execution") {
      const command = str(item.command);
      const skill = skillReadBy(command);
      const call: AgentEvent = {
        ...base,
        name: "exec_command",
        input: { command },
        tool: commandKind(command),
      };
      return skill === undefined ? [call] : [call, { kind: "skill_load", skill, via: "read", toolUseId: id }];
    }
    if (type === "file_change")
      return [{ ...base, name: "apply_patch", input: { changes: item.changes }, tool: fileChangeKind(item) }];
    if (type === "web_search")
      return [{ ...base, name: "web_search", input: { query: item.query }, tool: "search" }];
    // The last of the four tool items: an MCP tool call.
    return [
      {
        ...base,
        name: `${str(item.server)}.${str(item.tool)}`,
        input: isObject(item.arguments) ? item.arguments : {},
        tool: "other",
      },
    ];
  }

  function toolResult(item: Json): AgentEvent[] {
    toolFinished = true;
    const type = str(item.type);
    const failed = item.status === "failed" || (type === "command_execution" && num(item.exit_code) !== 0);
    const content =
      type === "command_execution"
        ? str(item.aggregated_output)
        : isObject(item.error)
          ? str(item.error.message)
          : "";
    return [{ kind: "tool_result", toolUseId: str(item.id), isError: failed, content }];
  }

  function itemEvents(type: string, item: Json): AgentEvent[] {
    const itemType = str(item.type);
    if (itemType === "agent_message") {
      if (type !== "item.completed") return [];
      lastText = str(item.text);
      return [{ kind: "text", text: lastText, messageId: messageId() }];
    }
    if (["command_execution", "file_change", "web_search", "mcp_tool_call"].includes(itemType)) {
      const calls = toolUse(item);
      return type === "item.completed" ? [...calls, ...toolResult(item)] : calls;
    }
    return [{ kind: "unknown", type: `${type}:${itemType || "untyped"}` }];
  }

  return (line) => {
    const data = jsonLineObject(line);
    if (Array.isArray(data)) return data;
    const type = str(data.type);
    if (type === "thread.started")
      return [{ kind: "init", model: "", tools: [], skills: [], sessionId: str(data.thread_id) }];
    if (
      (type === "item.started" || type === "item.updated" || type === "item.completed") &&
      isObject(data.item)
    )
      return itemEvents(type, data.item);
    if (type === "turn.completed") {
      return [
        {
          kind: "result",
          isError: false,
          subtype: "success",
          text: lastText,
          numTurns: turns,
          usage: codexUsage(data.usage),
        },
      ];
    }
    if (type === "turn.failed") {
      const text = isObject(data.error) ? str(data.error.message) : "";
      const status = statusIn(text);
      return [
        {
          kind: "result",
          isError: true,
          subtype: "error",
          text,
          numTurns: turns,
          ...(status !== undefined ? { apiErrorStatus: status } : {}),
        },
      ];
    }
    return [{ kind: "unknown", type: type || "untyped" }];
  };
}

/** A stored transcript.jsonl of a Codex run as normalised events. */
export function parseCodexTranscript(text: string): AgentEvent[] {
  const parse = createCodexParser();
  return text.split("\n").flatMap(parse);
}
