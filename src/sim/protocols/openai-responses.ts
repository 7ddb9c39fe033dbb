import type { IncomingHttpHeaders } from "node:http";
import { isAbsolute, join, relative } from "node:path";
import { REPLAY_HEADER, replayOfHeader } from "../../contracts/run-marker.js";
import {
  type Conversation,
  conversationOf,
  type ListedSkill,
  sessionOf,
  type TextMessage,
} from "../conversation.js";
import { estimateTokens, SIM_MODEL } from "../encode.js";
import type { SimReply } from "../model.js";
import type { ContentBlock } from "../plan.js";
import { type HttpAnswer, jsonAnswer, type Protocol, type WireRequest } from "./protocol.js";

// OpenAI's Responses API (`POST /v1/responses`, streamed as Server-Sent Events): what Codex CLI speaks. Codex has one
// shell tool, `exec_command`; the plan's Write, Bash, Read and Skill calls become commands it runs through it.
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

export interface ResponsesRequest {
  model?: string;
  instructions?: string;
  input?: unknown;
  tools?: unknown[];
  stream?: boolean;
}

// Context Codex adds as user messages; the user's prompt is the first user text that is none of these.
const HARNESS_PREFIXES = [
  "<environment_context>",
  "<user_instructions>",
  "# AGENTS.md instructions",
  "<skill>",
];

function contentTexts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => (isObject(part) && typeof part.text === "string" ? [part.text] : []));
}

interface ReadInput {
  system: string[];
  messages: TextMessage[];
  /** Every text of the request, harness context included: where the skill list and the working directory are. */
  all: string[];
}

// Consecutive model output items (text, reasoning, tool calls) are one assistant turn; a tool's output is the user's.
function readInput(request: ResponsesRequest): ReadInput {
  const system = request.instructions ? [request.instructions] : [];
  const messages: TextMessage[] = [];
  const all = [...system];
  let assistant: TextMessage | undefined;
  const assistantTurn = (): TextMessage => {
    if (!assistant) {
      // Stryker disable next-line ArrayDeclaration: equivalent, no assistant text is read on this wire
      assistant = { role: "assistant", texts: [] };
      messages.push(assistant);
    }
    return assistant;
  };
  const userTurn = (texts: string[]) => {
    assistant = undefined;
    messages.push({ role: "user", texts });
  };
  // Stryker disable next-line ArrayDeclaration: equivalent, input items that are no objects are skipped anyway
  const items = Array.isArray(request.input) ? request.input : [];
  for (const item of items) {
    if (!isObject(item)) continue;
    const type = str(item.type) || "message";
    if (type === "message") {
      const texts = contentTexts(item.content);
      all.push(...texts);
      if (item.role === "developer" || item.role === "system") system.push(...texts);
      else if (item.role === "assistant") assistantTurn().texts.push(...texts);
      else userTurn(texts.filter((t) => !HARNESS_PREFIXES.some((p) => t.trimStart().startsWith(p))));
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      userTurn([contentTexts(item.output).join("\n")]);
    } else assistantTurn();
  }
  return { system, messages, all };
}

/** Codex's skill list: the roots table and `- <name>: <description> (file: r1/<name>/SKILL.md)` lines. */
export function parseSkillsInstructions(text: string): ListedSkill[] {
  // Without the opening tag `start` is -1, and the block at most the text's last character: no skill line.
  const start = text.indexOf("<skills_instructions>");
  const end = text.indexOf("</skills_instructions>", start);
  const block = text.slice(start, end === -1 ? undefined : end);
  const roots = new Map<string, string>();
  for (const match of block.matchAll(/^- `([^`]+)` = `([^`]+)`$/gm)) roots.set(match[1]!, match[2]!);
  const skills: ListedSkill[] = [];
  for (const match of block.matchAll(/^- ([^\s:]+): (.*) \(file: ([^)\s]+)\)$/gm)) {
    const [, name, description, file] = match as unknown as [string, string, string, string];
    const [alias, ...rest] = file.split("/");
    // Stryker disable next-line StringLiteral: equivalent, split always yields a first part
    const root = roots.get(alias ?? "");
    const path = root ? join(root, ...rest) : file;
    // Codex's own `.system` skills (imagegen, skill-creator, …) are built-ins: the simulator leaves them alone.
    // Stryker disable next-line StringLiteral: equivalent, no placeholder for a missing root ends in /.system
    if (/[\\/]\.system$/.test(root ?? "")) continue;
    skills.push({ name, description, ...(isAbsolute(path) ? { file: path } : {}) });
  }
  return skills;
}

/** A request read into the conversation model, with the system texts a judge's marker may be in. */
export function readResponsesRequest(request: ResponsesRequest): {
  conversation: Conversation;
  system: string[];
} {
  const { system, messages, all } = readInput(request);
  const base = conversationOf({
    system,
    messages,
    hasTools: Array.isArray(request.tools) && request.tools.length > 0,
    model: request.model,
  });
  const listed = all.find((t) => t.includes("<skills_instructions>"));
  const cwd = all.map((t) => /<cwd>([^<]+)<\/cwd>/.exec(t)?.[1]).find((c) => c !== undefined);
  const skills = listed ? parseSkillsInstructions(listed) : [];
  return { conversation: { ...base, skills, cwd: cwd?.trim() ?? base.cwd }, system };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function shownPath(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

// Codex intercepts `apply_patch` run through its shell tool and applies the patch itself, as a file_change.
function patchCommand(path: string, content: string): string {
  const lines = content.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let marker = "PATCH";
  while (lines.includes(marker)) marker += "_";
  const body = lines.map((line) => `+${line}`).join("\n");
  return `apply_patch <<'${marker}'\n*** Begin Patch\n*** Add File: ${path}\n${body}${body ? "\n" : ""}*** End Patch\n${marker}\n`;
}

/** The shell command Codex runs for one of the plan's tool calls. */
export function commandFor(
  block: Extract<ContentBlock, { type: "tool_use" }>,
  conversation: Conversation,
): string {
  const input = block.input;
  const cwd = conversation.cwd;
  if (block.name === "Bash") return str(input.command);
  if (block.name === "Read") return `cat ${quote(shownPath(str(input.file_path), cwd))}`;
  if (block.name === "Write") return patchCommand(shownPath(str(input.file_path), cwd), str(input.content));
  if (block.name === "Skill") {
    const name = str(input.skill);
    const listed = conversation.skills.find((s) => s.name === name);
    return `cat ${quote(listed?.file ?? join(".agents", "skills", name, "SKILL.md"))}`;
  }
  return `echo ${quote(`unsupported simulated tool ${block.name}`)}`;
}

function outputItems(reply: SimReply, conversation: Conversation, n: number): Json[] {
  const items: Json[] = [];
  const texts = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
  if (texts.length > 0) {
    items.push({
      type: "message",
      id: `msg_sim_${n}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: texts.join("\n\n"), annotations: [] }],
    });
  }
  for (const block of reply.content) {
    if (block.type !== "tool_use") continue;
    items.push({
      type: "function_call",
      id: `fc_${block.id}`,
      call_id: block.id,
      name: "exec_command",
      arguments: JSON.stringify({ cmd: commandFor(block, conversation) }),
      status: "completed",
    });
  }
  return items;
}

function usageJson(inputTokens: number, outputTokens: number): Json {
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
}

function responseJson(id: string, status: string, output: Json[], usage?: Json): Json {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: SIM_MODEL,
    output,
    ...(usage ? { usage } : {}),
  };
}

// The streaming protocol: created, an added/done pair per output item (text as one delta), completed with usage.
function responseEvents(id: string, items: Json[], usage: Json): string {
  const events: string[] = [];
  let sequence = 0;
  const emit = (type: string, data: Json) =>
    events.push(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`,
    );
  emit("response.created", { response: responseJson(id, "in_progress", []) });
  items.forEach((item, index) => {
    if (item.type === "message") {
      // Stryker disable next-line StringLiteral: equivalent, a message item has one text part
      const text = contentTexts(item.content).join("");
      emit("response.output_item.added", {
        output_index: index,
        item: { ...item, status: "in_progress", content: [] },
      });
      emit("response.output_text.delta", {
        output_index: index,
        content_index: 0,
        item_id: item.id,
        delta: text,
      });
    } else
      emit("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress" } });
    emit("response.output_item.done", { output_index: index, item });
  });
  emit("response.completed", { response: responseJson(id, "completed", items, usage) });
  return events.join("");
}

function errorBody(status: number): Json {
  const code =
    status === 429 ? "rate_limit_exceeded" : status === 529 ? "server_is_overloaded" : "server_error";
  const type = status === 429 ? "requests" : "server_error";
  return { error: { message: `Simulated ${status} (${code}) from skillgym sim`, type, param: null, code } };
}

// A string input is one message of the user's.
// Stryker disable next-line StringLiteral: equivalent, a message of no other known role is read as the user's too
const userMessage = (content: string): Json => ({ role: "user", content });

export const openaiResponses: Protocol = {
  plainAction: "response",
  read(body: string, headers: IncomingHttpHeaders): WireRequest {
    const request = JSON.parse(body) as ResponsesRequest;
    if (!Array.isArray(request.input) && typeof request.input !== "string")
      throw new Error("input: required, an array of items or a string");
    const normalised =
      typeof request.input === "string" ? { ...request, input: [userMessage(request.input)] } : request;
    const read = readResponsesRequest(normalised);
    const { system } = read;
    const { replayed, runNumber } = replayOfHeader(headers[REPLAY_HEADER]);
    const conversation = {
      ...read.conversation,
      ...(replayed ? { replay: runNumber !== undefined ? { runNumber } : {} } : {}),
    };
    return {
      request: {
        conversation,
        judgeText: [...system, conversation.prompt].join("\n"),
        session: sessionOf(headers["session-id"], conversation.prompt),
      },
      stream: Boolean(request.stream),
      inputTokens: estimateTokens(body),
    };
  },
  write(reply: SimReply, wire: WireRequest, n: number): HttpAnswer {
    const id = `resp_sim_${n}`;
    const items = outputItems(reply, wire.request.conversation, n);
    const usage = usageJson(wire.inputTokens, reply.outputTokens);
    if (!wire.stream) return jsonAnswer(200, responseJson(id, "completed", items, usage));
    return {
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      body: responseEvents(id, items, usage),
    };
  },
  error(status: number): HttpAnswer {
    return jsonAnswer(status, errorBody(status));
  },
};
