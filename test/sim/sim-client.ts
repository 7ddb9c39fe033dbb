import type { MessagesRequest } from "../../src/sim/protocols/anthropic-messages.js";

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface ToolUse {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface TextBlock {
  type: "text";
  text: string;
}

export interface MessageBody {
  id: string;
  type: string;
  role: string;
  stop_reason: string;
  content: (ToolUse | TextBlock)[];
  usage: { input_tokens: number; output_tokens: number };
}

const listing = (skills: Record<string, string>) =>
  "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n" +
  Object.entries(skills)
    .map(([name, description]) => `- ${name}: ${description}`)
    .join("\n") +
  "\n</system-reminder>";

/** A request shaped like Claude Code's, `turn` assistant messages into the conversation. */
export function claudeRequest(options: {
  prompt: string;
  turn?: number;
  cwd?: string;
  skills?: Record<string, string>;
  stream?: boolean;
  tools?: boolean;
}): MessagesRequest {
  const messages: NonNullable<MessagesRequest["messages"]> = [
    {
      role: "user",
      content: [
        {
          type: "text",
          text: listing(options.skills ?? { "pdf-tools": "Extract text from PDF documents." }),
        },
        { type: "text", text: options.prompt },
      ],
    },
  ];
  for (let i = 0; i < (options.turn ?? 0); i++) {
    messages.push({ role: "assistant", content: [{ type: "text", text: `step ${i}` }] });
    messages.push({ role: "user", content: [{ type: "tool_result", content: "ok" }] });
  }
  return {
    model: "claude-sonnet-4-5",
    system: [{ type: "text", text: `Primary working directory: ${options.cwd ?? "/work/project"}` }],
    messages,
    ...(options.tools === false ? {} : { tools: [{ name: "Bash" }, { name: "Skill" }] }),
    stream: options.stream ?? false,
  };
}

export function post(url: string, body: unknown, session?: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(session ? { "x-claude-code-session-id": session } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

export async function postJson(url: string, body: unknown, session?: string): Promise<MessageBody> {
  const response = await post(url, body, session);
  if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`);
  return (await response.json()) as MessageBody;
}

export function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? "";
      const data = /^data: (.*)$/m.exec(chunk)?.[1] ?? "{}";
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

export function toolUses(message: MessageBody): ToolUse[] {
  return message.content.filter((b): b is ToolUse => b.type === "tool_use");
}

export function texts(message: MessageBody): string[] {
  return message.content.filter((b): b is TextBlock => b.type === "text").map((b) => b.text);
}
