import type { IncomingHttpHeaders } from "node:http";
import { conversationOf, firstPrompt, sessionOf, type TextMessage } from "../conversation.js";
import { estimateTokens, SIM_MODEL } from "../encode.js";
import type { SimReply } from "../model.js";
import {
  type ChatAgent,
  chatAgentCwd,
  chatAgentOf,
  chatToolCalls,
  copilotSessionFolder,
  FOLDER_CALL_PREFIX,
  parseChatAgentSkills,
  withoutDatetime,
} from "./chat-agent-tools.js";
import { type HttpAnswer, jsonAnswer, type Protocol, type WireRequest } from "./protocol.js";

// OpenAI's Chat Completions (`/agents/v1/chat/completions`, streamed or not) as agents speak it: OpenCode and GitHub
// Copilot CLI, with tool calls and tool results. The judge backend's plain `/v1/chat/completions` stays its own wire.

/** Where the agents of this wire send their requests: their base URL is `<sim>/agents/v1`. */
export const CHAT_AGENTS_PATH = "/agents/v1/chat/completions";

interface ChatPart {
  type?: string;
  text?: string;
}

interface ChatMessage {
  role?: string;
  content?: string | ChatPart[] | null;
  tool_calls?: { id?: string }[];
}

export interface ChatAgentRequest {
  model?: string;
  messages?: ChatMessage[];
  tools?: { function?: { name?: string } }[];
  stream?: boolean;
}

interface ChatAgentWire extends WireRequest {
  agent: ChatAgent | undefined;
  /** The previous turn was the folder-making call before a write (Copilot CLI): now comes the write itself. */
  afterFolderCall: boolean;
}

function messageTexts(message: ChatMessage): string[] {
  const content = message.content;
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => (typeof part.text === "string" ? [part.text] : []));
}

const isFolderCall = (message: ChatMessage) =>
  message.role === "assistant" &&
  (message.tool_calls?.length ?? 0) > 0 &&
  (message.tool_calls ?? []).every((call) => call.id?.startsWith(FOLDER_CALL_PREFIX));

// The simulator's own folder-making turns are not the plan's turns. (System texts among the messages change nothing:
// only the user's texts make the prompt, and only the assistant's messages count as turns.)
function textMessages(messages: readonly ChatMessage[]): TextMessage[] {
  return messages
    .filter((m) => !isFolderCall(m))
    .map((m) => ({
      role: m.role,
      texts: m.role === "user" ? messageTexts(m).map(withoutDatetime) : messageTexts(m),
    }));
}

function readRequest(body: string, headers: IncomingHttpHeaders): ChatAgentWire {
  const request = JSON.parse(body) as ChatAgentRequest;
  if (!Array.isArray(request.messages)) throw new Error("messages: required, an array");
  const messages = request.messages;
  const system = messages.filter((m) => m.role === "system" || m.role === "developer").flatMap(messageTexts);
  // Stryker disable next-line StringLiteral: equivalent, an unnamed tool is no agent's tool under any name
  const toolNames = (request.tools ?? []).map((t) => t.function?.name ?? "");
  const texts = textMessages(messages);
  const userTexts = texts.filter((m) => m.role === "user").flatMap((m) => m.texts);
  // Qwen Code names its folder and lists its skills in reminders of its first user message, not the system prompt.
  const cwd = chatAgentCwd(system) ?? chatAgentCwd(userTexts);
  const listed = parseChatAgentSkills(system.join("\n"));
  const conversation = conversationOf({
    system,
    messages: texts,
    hasTools: toolNames.length > 0,
    model: request.model,
    skills: listed.length > 0 ? listed : parseChatAgentSkills(userTexts.join("\n")),
    cwd,
  });
  // OpenCode names its session in a header; Copilot CLI's system prompt names its run's own session folder; Qwen Code
  // names neither, but its run's working folder is its own.
  const header = headers["x-session-id"];
  // Stryker disable next-line StringLiteral: equivalent, any fixed text keys a run naming no folder by its prompt alone
  const folder = copilotSessionFolder(system) ?? cwd ?? "";
  const session =
    typeof header === "string" && header ? header : sessionOf(undefined, `${folder}\n${conversation.prompt}`);
  const assistants = messages.filter((m) => m.role === "assistant");
  return {
    request: { conversation, judgeText: [...system, firstPrompt(texts)].join("\n"), session },
    stream: Boolean(request.stream),
    inputTokens: estimateTokens(body),
    ...(request.model ? { model: request.model } : {}),
    agent: chatAgentOf(toolNames),
    afterFolderCall: assistants.length > 0 && isFolderCall(assistants[assistants.length - 1]!),
  };
}

interface ChoiceMessage {
  content: string | null;
  tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
}

function choiceMessage(reply: SimReply, wire: ChatAgentWire): ChoiceMessage {
  const calls = chatToolCalls(wire.agent, reply.content, wire.request.conversation.cwd, wire.afterFolderCall);
  // A folder-making turn carries only that call; the turn's text comes with the write.
  const folderTurn = calls.some((c) => c.id.startsWith(FOLDER_CALL_PREFIX));
  const text = folderTurn
    ? ""
    : reply.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n\n");
  return {
    content: text || (calls.length > 0 ? null : ""),
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: "function" as const,
            function: { name: c.name, arguments: JSON.stringify(c.arguments) },
          })),
        }
      : {}),
  };
}

// The streaming protocol: a role chunk, the text, each tool call (name, then its arguments), the finish, the usage.
function streamBody(id: string, model: string, message: ChoiceMessage, usage: object): string {
  const base = { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model };
  const chunks: object[] = [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
  ];
  if (message.content)
    chunks.push({
      ...base,
      choices: [{ index: 0, delta: { content: message.content }, finish_reason: null }],
    });
  (message.tool_calls ?? []).forEach((call, index) => {
    const head = {
      index,
      id: call.id,
      type: "function",
      function: { name: call.function.name, arguments: "" },
    };
    chunks.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [head] }, finish_reason: null }] });
    const args = { index, function: { arguments: call.function.arguments } };
    chunks.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [args] }, finish_reason: null }] });
  });
  const finish = message.tool_calls ? "tool_calls" : "stop";
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  chunks.push({ ...base, choices: [], usage });
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;
}

export const openaiChatAgents: Protocol = {
  plainAction: "chat-completion",
  read: readRequest,
  write(reply: SimReply, wire: WireRequest, n: number): HttpAnswer {
    const chat = wire as ChatAgentWire;
    const message = choiceMessage(reply, chat);
    const usage = {
      prompt_tokens: wire.inputTokens,
      completion_tokens: reply.outputTokens,
      total_tokens: wire.inputTokens + reply.outputTokens,
    };
    const id = `chatcmpl-sim-${n}`;
    // Like OpenAI's API, the answer names the model that was asked for.
    const model = wire.model ?? SIM_MODEL;
    if (!wire.stream) {
      const finish = message.tool_calls ? "tool_calls" : "stop";
      return jsonAnswer(200, {
        id,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
        usage,
      });
    }
    return {
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      body: streamBody(id, model, message, usage),
    };
  },
  // Both agents retry a failed request five times themselves, waiting what `retry-after` says: at once here, so a
  // simulated fault reaches skillgym's own retry within seconds.
  error(status: number): HttpAnswer {
    const type = status === 429 ? "rate_limit_exceeded" : status === 529 ? "overloaded" : "server_error";
    const answer = jsonAnswer(status, {
      error: { message: `Simulated ${status} (${type}) from skillgym sim`, type, code: status },
    });
    return { ...answer, headers: { ...answer.headers, "retry-after": "0", "retry-after-ms": "0" } };
  },
};
