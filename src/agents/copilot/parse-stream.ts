import type { AgentEvent, ToolKind } from "../events.js";
import { isObject, type Json, jsonLineObject } from "../json-lines.js";
import { copilotSkillLoad } from "./skills.js";

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

const TOOL_KINDS: Record<string, ToolKind> = {
  bash: "shell",
  read_bash: "shell",
  write_bash: "shell",
  stop_bash: "shell",
  list_bash: "shell",
  view: "read",
  create: "write",
  edit: "edit",
  grep: "search",
  glob: "search",
  web_fetch: "search",
  skill: "skill",
};

/**
 * Reads `copilot -p … --output-format json` line by line into normalised events. Stateful: the final `result` line
 * carries neither the answer nor the error, so the last message and a `session.error` before it are kept. A tool call
 * is announced with the model's message, before it runs (an early stop acts before the skill loads).
 */
export function createCopilotParser(): (line: string) => AgentEvent[] {
  let started = false;
  let turns = 0;
  let lastText = "";
  let error: { message: string; status: number | undefined; type: string } | undefined;

  function assistantMessage(data: Json): AgentEvent[] {
    turns++;
    const messageId = str(data.messageId);
    const events: AgentEvent[] = [];
    const text = str(data.content);
    if (text) {
      lastText = text;
      events.push({ kind: "text", text, messageId });
    }
    // Stryker disable next-line ArrayDeclaration: equivalent, a request that is no object is skipped
    const requests = Array.isArray(data.toolRequests) ? data.toolRequests : [];
    for (const request of requests) {
      if (!isObject(request)) continue;
      const name = str(request.name);
      const id = str(request.toolCallId);
      const input = isObject(request.arguments) ? request.arguments : {};
      events.push({ kind: "tool_use", id, name, input, messageId, tool: TOOL_KINDS[name] ?? "other" });
      const load = copilotSkillLoad(name, input);
      if (load) events.push({ kind: "skill_load", skill: load.skill, via: load.via, toolUseId: id });
    }
    return events;
  }

  function toolResult(data: Json): AgentEvent[] {
    const result = isObject(data.result) ? data.result : {};
    const failure = isObject(data.error) ? str(data.error.message) : "";
    const success = data.success === true;
    return [
      {
        kind: "tool_result",
        toolUseId: str(data.toolCallId),
        isError: !success,
        content: success ? str(result.content) : failure || str(result.content),
      },
    ];
  }

  function result(line: Json): AgentEvent[] {
    const usage = isObject(line.usage) ? line.usage : {};
    const exitCode = num(line.exitCode) ?? 0;
    const failed = exitCode !== 0 || error !== undefined;
    const durationMs = num(usage.sessionDurationMs);
    return [
      {
        kind: "result",
        isError: failed,
        subtype: failed ? (error?.type ?? `exit ${exitCode}`) : "success",
        text: failed ? (error?.message ?? lastText) : lastText,
        numTurns: turns,
        ...(durationMs !== undefined ? { durationMs } : {}),
        ...(failed && error?.status !== undefined ? { apiErrorStatus: error.status } : {}),
      },
    ];
  }

  return (line) => {
    const parsed = jsonLineObject(line);
    if (Array.isArray(parsed)) return parsed;
    const type = str(parsed.type);
    const data = isObject(parsed.data) ? parsed.data : {};
    const events: AgentEvent[] = [];
    if (!started) {
      started = true;
      // Stryker disable next-line ArrayDeclaration: equivalent, an entry that is no object names no skill
      const skills = type === "session.skills_loaded" && Array.isArray(data.skills) ? data.skills : [];
      const names = skills.flatMap((s) =>
        isObject(s) && s.enabled !== false && str(s.name) ? [str(s.name)] : [],
      );
      events.push({ kind: "init", model: "", tools: [], skills: names });
      if (type === "session.skills_loaded") return events;
    }
    if (type === "assistant.message") return [...events, ...assistantMessage(data)];
    if (type === "tool.execution_complete") return [...events, ...toolResult(data)];
    if (type === "session.error") {
      error = {
        message: str(data.message),
        type: str(data.errorType) || "error",
        status: num(data.statusCode),
      };
      return events;
    }
    if (type === "result") return [...events, ...result(parsed)];
    return [...events, { kind: "unknown", type: type || "untyped" }];
  };
}

/** A stored transcript.jsonl of a Copilot CLI run as normalised events. */
export function parseCopilotTranscript(text: string): AgentEvent[] {
  const parse = createCopilotParser();
  return text.split("\n").flatMap(parse);
}
