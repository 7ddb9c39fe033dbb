import type { ToolKind } from "../events.js";
import { isObject, type Json } from "../json-lines.js";

/** What is known of one ACP tool call, merged from its `tool_call`, `tool_call_update`s and permission request. */
export interface AcpToolCall {
  id: string;
  /** The tool's own name, when the agent says it (ACP's `name`, Qwen Code's `_meta.toolName`, Gemini CLI's id). */
  name?: string;
  /** ACP's kind: read, edit, delete, move, search, execute, think, fetch, switch_mode, other. */
  kind?: string;
  title?: string;
  status?: string;
  paths: string[];
  input: Json;
  /** The text of its content blocks (what it returned, a diff's new text). */
  output: string;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

// Gemini CLI names a tool call `<tool>__<tool>_<time>_<n>`; its updates carry no tool name otherwise.
const NAMED_ID = /^([A-Za-z][\w.-]*?)__\1_/;

function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => {
      if (!isObject(block)) return "";
      if (block.type === "content" && isObject(block.content)) return str(block.content.text) ?? "";
      if (block.type === "diff") return str(block.newText) ?? "";
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

/** A tool call's fields from one `tool_call`, `tool_call_update` or permission request, over what was known. */
export function mergeToolCall(known: AcpToolCall | undefined, update: Json): AcpToolCall {
  const id = str(update.toolCallId) ?? known?.id ?? "";
  const meta = isObject(update._meta) ? update._meta : {};
  const name = str(update.name) ?? str(meta.toolName) ?? known?.name ?? NAMED_ID.exec(id)?.[1];
  const kind = str(update.kind) ?? known?.kind;
  const title = str(update.title) ?? known?.title;
  const status = str(update.status) ?? known?.status;
  // Stryker disable next-line ArrayDeclaration: equivalent, a location that is no object is skipped below
  const locations = Array.isArray(update.locations) ? update.locations : [];
  const paths = locations.flatMap((l) => (isObject(l) && str(l.path) ? [l.path as string] : []));
  const input =
    isObject(update.rawInput) && Object.keys(update.rawInput).length > 0 ? update.rawInput : undefined;
  const output = contentText(update.content);
  return {
    id,
    ...(name ? { name } : {}),
    ...(kind ? { kind } : {}),
    ...(title ? { title } : {}),
    ...(status ? { status } : {}),
    paths: paths.length > 0 ? paths : (known?.paths ?? []),
    input: input ?? known?.input ?? {},
    output: output || known?.output || "",
  };
}

const PATH_KEYS = [
  "file_path",
  "filePath",
  "absolute_path",
  "path",
  "notebook_path",
  "directory",
  "dir_path",
  "cwd",
];

/** Every path a tool call names: its locations and the path-like fields of its input. */
export function pathsOf(call: AcpToolCall): string[] {
  const fromInput = PATH_KEYS.flatMap((key) => (str(call.input[key]) ? [call.input[key] as string] : []));
  return [...new Set([...call.paths, ...fromInput])];
}

const SKILL_TOOL = /^(activate_)?skills?$/i;

/** Whether the call is the agent's skill tool (Gemini CLI's `activate_skill`, Qwen Code's and others' `skill`). */
export function isSkillTool(call: AcpToolCall): boolean {
  return call.name !== undefined && SKILL_TOOL.test(call.name);
}

/** skillgym's kind of an ACP tool call: by the skill tool, then ACP's kind, a write told from an edit by its name. */
export function toolKindOf(call: AcpToolCall): ToolKind {
  if (isSkillTool(call)) return "skill";
  // Stryker disable next-line StringLiteral: equivalent, any text naming no write or create reads as an edit
  const name = call.name ?? "";
  switch (call.kind) {
    case "read":
      return "read";
    case "edit":
      return /write|create/i.test(name) ? "write" : "edit";
    case "delete":
    case "move":
      return "edit";
    case "search":
    case "fetch":
      return "search";
    case "execute":
      return "shell";
    default:
      return "other";
  }
}

/** The input a `tool_use` event records: the agent's raw input, else what the call's title and locations say. */
export function inputOf(call: AcpToolCall): Json {
  if (Object.keys(call.input).length > 0) return call.input;
  return {
    ...(call.title ? { title: call.title } : {}),
    ...(call.paths.length > 0 ? { file_path: call.paths[0], paths: call.paths } : {}),
  };
}
