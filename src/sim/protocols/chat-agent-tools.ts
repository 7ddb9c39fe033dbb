import { dirname, isAbsolute } from "node:path";
import type { ListedSkill } from "../conversation.js";
import type { ContentBlock } from "../plan.js";

// The agents that speak OpenAI Chat Completions to the simulator, told apart by the tools their requests offer, and
// how each one's own tools do the plan's Claude-shaped steps (Read, Write, Bash, Skill).
export type ChatAgent = "opencode" | "copilot" | "qwen";

export interface ChatToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

type ToolUse = Extract<ContentBlock, { type: "tool_use" }>;

/** The id prefix of the folder-making call the simulator inserts before a Copilot CLI write (see `copilotCall`). */
export const FOLDER_CALL_PREFIX = "skillgym_mkdir_";

/**
 * Copilot CLI offers `view` and `create`; Qwen Code `read_file` and `write_file`; OpenCode `read` and `write`; a request
 * with none of them is no agent's.
 */
export function chatAgentOf(toolNames: readonly string[]): ChatAgent | undefined {
  if (toolNames.includes("view") || toolNames.includes("create")) return "copilot";
  if (toolNames.includes("read_file") || toolNames.includes("write_file")) return "qwen";
  if (toolNames.includes("read") || toolNames.includes("write")) return "opencode";
  return undefined;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

function openCodeCall(block: ToolUse): ChatToolCall {
  const input = block.input;
  const call = (name: string, args: Record<string, unknown>) => ({ id: block.id, name, arguments: args });
  switch (block.name) {
    case "Read":
      return call("read", { filePath: input.file_path });
    case "Write":
      return call("write", { filePath: input.file_path, content: input.content });
    case "Bash":
      return call("bash", { command: input.command, description: input.description ?? "Scripted step" });
    case "Skill":
      return call("skill", { name: input.skill });
    default:
      return call(block.name, input);
  }
}

// Qwen Code's tools (Gemini CLI's names, its own `skill`).
function qwenCall(block: ToolUse): ChatToolCall {
  const input = block.input;
  const call = (name: string, args: Record<string, unknown>) => ({ id: block.id, name, arguments: args });
  switch (block.name) {
    case "Read":
      return call("read_file", { file_path: input.file_path });
    case "Write":
      return call("write_file", { file_path: input.file_path, content: input.content });
    case "Bash":
      return call("run_shell_command", {
        command: qwenCommand(str(input.command)),
        description: input.description ?? "Scripted step",
      });
    case "Skill":
      return call("skill", { skill: input.skill });
    default:
      return call(block.name, input);
  }
}

// Qwen Code blocks a command that is only a `sleep` ("run blocking commands in the background") unless a trailing
// comment says the wait is meant; a script's `sleep` step is.
function qwenCommand(command: string): string {
  return /^\s*sleep\s+[\d.]+\s*$/.test(command) ? `${command} # intentional-sleep: a scripted wait` : command;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Copilot CLI's `create` fails when the file's folder is missing, as a model would first make it: a write into a
 * folder other than the working one is preceded by a turn of its own running `mkdir -p` (`afterFolderCall` says that
 * turn was just answered).
 */
function copilotCall(block: ToolUse, cwd: string | undefined, afterFolderCall: boolean): ChatToolCall {
  const input = block.input;
  const call = (name: string, args: Record<string, unknown>) => ({ id: block.id, name, arguments: args });
  switch (block.name) {
    case "Read":
      return call("view", { path: input.file_path });
    case "Write": {
      const folder = dirname(str(input.file_path));
      if (!afterFolderCall && isAbsolute(folder) && folder !== cwd)
        return {
          id: `${FOLDER_CALL_PREFIX}${block.id}`,
          name: "bash",
          arguments: { command: `mkdir -p ${quote(folder)}`, description: "Create the folder" },
        };
      return call("create", { path: input.file_path, file_text: input.content });
    }
    case "Bash":
      return call("bash", { command: input.command, description: input.description ?? "Scripted step" });
    case "Skill":
      return call("skill", { skill: input.skill });
    default:
      return call(block.name, input);
  }
}

/** The tool calls one turn's content makes in the agent's own tools. */
export function chatToolCalls(
  agent: ChatAgent | undefined,
  content: readonly ContentBlock[],
  cwd: string | undefined,
  afterFolderCall: boolean,
): ChatToolCall[] {
  const uses = content.filter((b): b is ToolUse => b.type === "tool_use");
  if (agent === "copilot") return uses.map((b) => copilotCall(b, cwd, afterFolderCall));
  if (agent === "qwen") return uses.map(qwenCall);
  return uses.map(openCodeCall);
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
 * The skills of an `<available_skills>` list (OpenCode's, Copilot CLI's and Qwen Code's), without the agents'
 * built-ins (location `<built-in>` in OpenCode's, `builtin` in Copilot CLI's, `bundled` in Qwen Code's), which the
 * simulator never picks. Qwen Code ends each description with its source in brackets ("(project)"): left out.
 */
export function parseChatAgentSkills(text: string): ListedSkill[] {
  const list = /<available_skills>([\s\S]*?)<\/available_skills>/.exec(text)?.[1];
  if (!list) return [];
  const skills: ListedSkill[] = [];
  const skill =
    /<skill>\s*<name>([\s\S]*?)<\/name>\s*<description>([\s\S]*?)<\/description>\s*(?:<location>([\s\S]*?)<\/location>)?/g;
  for (const match of list.matchAll(skill)) {
    // Stryker disable next-line StringLiteral: equivalent, a missing location is neither a built-in nor a file
    const location = unescapeXml(match[3]?.trim() ?? "");
    if (location === "<built-in>" || location === "builtin" || location === "bundled") continue;
    skills.push({
      name: unescapeXml(match[1]!.trim()),
      description: unescapeXml(match[2]!.trim()).replace(/\s*\((?:project|user|extension)\)$/, ""),
      ...(isAbsolute(location) ? { file: location } : {}),
    });
  }
  return skills;
}

/**
 * The working folder a request names: OpenCode's `Working directory:`, Copilot CLI's `Current working directory:` (in
 * the system prompt), Qwen Code's "I'm currently working in the directory:" (in its first user message).
 */
export function chatAgentCwd(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    const match =
      /(?:^|\n)\s*(?:\* )?(?:Current working directory|Working directory|I'm currently working in the directory): (\S[^\n]*)/.exec(
        text,
      );
    if (match) return match[1]!.trim();
  }
  return undefined;
}

/** Copilot CLI's session folder (one per run, under its home), the session key of a run that sends no session header. */
export function copilotSessionFolder(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    const match = /Session folder: (\S+)/.exec(text);
    if (match) return match[1];
  }
  return undefined;
}

/** A user text without the `<current_datetime>` block Copilot CLI puts before the prompt. */
export function withoutDatetime(text: string): string {
  return text.replace(/^\s*<current_datetime>[^<]*<\/current_datetime>\s*/, "");
}
