import type { IncomingHttpHeaders } from "node:http";
import { REPLAY_HEADER, replayOfHeader } from "../../contracts/run-marker.js";
import {
  type Conversation,
  conversationOf,
  firstPrompt,
  type ListedSkill,
  sessionOf,
  type TextMessage,
} from "../conversation.js";
import { estimateTokens, SIM_MODEL } from "../encode.js";
import type { SimReply } from "../model.js";
import type { ContentBlock } from "../plan.js";
import { type HttpAnswer, jsonAnswer, type Protocol, type WireRequest } from "./protocol.js";

// The Gemini API (`/v1beta/models/<model>:streamGenerateContent?alt=sse` and `:generateContent`): what Gemini CLI
// speaks. Plan steps are Claude-shaped tool calls; this writer turns each into Gemini CLI's own tool.
interface Part {
  text?: string;
  thought?: boolean;
  functionCall?: { name?: string; args?: Record<string, unknown> };
  functionResponse?: { name?: string; response?: unknown };
}

interface Content {
  role?: string;
  parts?: Part[];
}

export interface GenerateContentRequest {
  contents?: Content[];
  systemInstruction?: Content | string;
  tools?: { functionDeclarations?: unknown[] }[];
}

/** The route of both methods, with the model in the path. */
export const GEMINI_PATH = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

// Gemini CLI opens its first user message with a context block (date, OS, folders) ahead of the prompt.
const SESSION_CONTEXT = "<session_context>";

function partTexts(parts: readonly Part[] | undefined): string[] {
  const texts: string[] = [];
  for (const part of parts ?? []) {
    if (typeof part.text === "string" && !part.thought) texts.push(part.text);
    else if (part.functionResponse) texts.push(JSON.stringify(part.functionResponse.response ?? {}));
  }
  return texts;
}

function systemTexts(system: GenerateContentRequest["systemInstruction"]): string[] {
  if (system === undefined) return [];
  return typeof system === "string" ? [system] : partTexts(system.parts);
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/**
 * The skills of Gemini CLI's `<available_skills>` list, without its built-ins (skill-creator, antigravity-support,
 * read from the package's `builtin` folder), which the simulator never picks, as it leaves Claude Code's alone.
 */
export function parseAvailableSkills(text: string): ListedSkill[] {
  const list = /<available_skills>([\s\S]*?)<\/available_skills>/.exec(text)?.[1];
  if (!list) return [];
  const skills: ListedSkill[] = [];
  const skill =
    /<skill>\s*<name>([\s\S]*?)<\/name>\s*<description>([\s\S]*?)<\/description>\s*(?:<location>([\s\S]*?)<\/location>)?/g;
  for (const match of list.matchAll(skill)) {
    // Stryker disable next-line StringLiteral: equivalent, any fallback without a builtin SKILL.md path keeps the skill
    const location = match[3]?.trim() ?? "";
    if (/[\\/]builtin[\\/][^\\/]+[\\/]SKILL\.md$/i.test(location)) continue;
    skills.push({ name: unescapeXml(match[1]!.trim()), description: unescapeXml(match[2]!.trim()) });
  }
  return skills;
}

function workspaceDir(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    const match = /Workspace Directories:\*{0,2}\s*\n\s*- (.+)/.exec(text);
    if (match) return match[1]!.trim();
  }
  return undefined;
}

// Names the run's own home (its temporary directory) and workspace: one per run, as every run has its own home.
function sessionContext(request: GenerateContentRequest): string {
  const first = request.contents?.find((c) => c.role === "user");
  // Stryker disable next-line StringLiteral: equivalent, every request without a context block gets the same text, so sessions split alike
  return partTexts(first?.parts).find((t) => t.trimStart().startsWith(SESSION_CONTEXT)) ?? "";
}

// A content holding function responses answers the model's tool calls (any text beside them too): no user prompt.
const answersToolCalls = (content: Content) =>
  (content.parts ?? []).some((part) => part.functionResponse !== undefined);

function textMessages(request: GenerateContentRequest): TextMessage[] {
  return (request.contents ?? []).map((content) => ({
    role: content.role === "model" ? "assistant" : content.role,
    texts: partTexts(content.parts).filter((t) => !t.trimStart().startsWith(SESSION_CONTEXT)),
    ...(answersToolCalls(content) ? { toolResult: true } : {}),
  }));
}

export function readGeminiConversation(
  request: GenerateContentRequest,
  model: string | undefined,
): Conversation {
  const system = systemTexts(request.systemInstruction);
  const allTexts = [...system, ...(request.contents ?? []).flatMap((c) => partTexts(c.parts))];
  const cwd = workspaceDir(allTexts);
  return conversationOf({
    system,
    messages: textMessages(request),
    hasTools: (request.tools ?? []).some((t) => (t.functionDeclarations?.length ?? 0) > 0),
    model,
    skills: parseAvailableSkills(system.join("\n")),
    // Stryker disable next-line ConditionalExpression: equivalent, conversationOf reads an absent and an undefined cwd alike
    ...(cwd !== undefined ? { cwd } : {}),
    // A resumed session (`--session-file`) sends its earlier turns before the query: they are the history.
    marksToolResults: true,
  });
}

// A plan step's Claude-shaped tool call as the Gemini CLI tool that does the same.
function functionCall(block: Extract<ContentBlock, { type: "tool_use" }>): Part {
  const input = block.input;
  switch (block.name) {
    case "Write":
      return {
        functionCall: { name: "write_file", args: { file_path: input.file_path, content: input.content } },
      };
    case "Bash":
      return {
        functionCall: {
          name: "run_shell_command",
          args: { command: input.command, description: input.description },
        },
      };
    case "Read":
      return { functionCall: { name: "read_file", args: { file_path: input.file_path } } };
    case "Skill":
      return { functionCall: { name: "activate_skill", args: { name: input.skill } } };
    default:
      return { functionCall: { name: block.name, args: input } };
  }
}

// Like Google's API, the answer names the model that was asked for: Gemini CLI counts (and skillgym prices) tokens by it.
function responseJson(reply: SimReply, inputTokens: number, model: string): object {
  const parts: Part[] = reply.content.map((block) =>
    block.type === "text" ? { text: block.text } : functionCall(block),
  );
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: inputTokens,
      candidatesTokenCount: reply.outputTokens,
      totalTokenCount: inputTokens + reply.outputTokens,
    },
    modelVersion: model,
  };
}

function errorStatus(status: number): string {
  if (status === 429) return "RESOURCE_EXHAUSTED";
  if (status === 529 || status === 503) return "UNAVAILABLE";
  if (status === 401) return "UNAUTHENTICATED";
  return "INTERNAL";
}

// The agent's own requests are told apart by their context block and prompt alone.
// Stryker disable next-line StringLiteral: equivalent, any fixed prefix keeps the agent's sessions apart as they are
const AGENT_SESSION_PREFIX = "";

export const gemini: Protocol = {
  plainAction: "generate-content",
  // Stryker disable next-line StringLiteral: equivalent, a url that is no Gemini path names no model, as none does
  read(body: string, headers: IncomingHttpHeaders, url = ""): WireRequest {
    const request = JSON.parse(body) as GenerateContentRequest;
    // Stryker disable next-line StringLiteral: equivalent, split always yields a first element, so the fallback is never used
    const route = GEMINI_PATH.exec(url.split("?")[0] ?? "");
    const replayHeader = headers[REPLAY_HEADER];
    const { replayed, ...replay } = replayOfHeader(replayHeader);
    const conversation = { ...readGeminiConversation(request, route?.[1]), ...(replayed ? { replay } : {}) };
    // A replay carries the capture run's context block: its header names the run it stands for, which tells it apart.
    const replayOf = replayed ? `${REPLAY_HEADER}: ${String(replayHeader)}\n` : AGENT_SESSION_PREFIX;
    return {
      request: {
        conversation,
        judgeText: [...systemTexts(request.systemInstruction), firstPrompt(textMessages(request))].join("\n"),
        // Gemini CLI sends no session id; its context block names the run's home, so it tells runs apart.
        session: sessionOf(undefined, `${replayOf}${sessionContext(request)}\n${conversation.prompt}`),
      },
      stream: route?.[2] === "streamGenerateContent",
      inputTokens: estimateTokens(body),
      ...(route?.[1] ? { model: decodeURIComponent(route[1]) } : {}),
    };
  },
  write(reply: SimReply, wire: WireRequest): HttpAnswer {
    const json = responseJson(reply, wire.inputTokens, wire.model ?? SIM_MODEL);
    if (!wire.stream) return jsonAnswer(200, json);
    return {
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      body: `data: ${JSON.stringify(json)}\n\n`,
    };
  },
  error(status: number): HttpAnswer {
    const name = errorStatus(status);
    return jsonAnswer(status, {
      error: { code: status, message: `Simulated ${status} (${name}) from skillgym sim`, status: name },
    });
  },
};
