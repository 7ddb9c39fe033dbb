import { createHash } from "node:crypto";

// What the simulator reads out of one request, whatever wire format it came in: a protocol fills it in.
export interface ListedSkill {
  name: string;
  description: string;
  /** The absolute path of its SKILL.md, when the agent's list gives one (Codex's does). */
  file?: string;
}

export interface Conversation {
  prompt: string;
  cwd: string | undefined;
  skills: ListedSkill[];
  /** Number of assistant turns already in the conversation: the index of the turn to produce now. */
  turn: number;
  /**
   * The texts of the turns before the prompt (a prior conversation the run continues, e.g. Claude Code's `--resume`):
   * empty in a fresh conversation. Only a wire that marks tool results (Anthropic's, Gemini's) tells them apart.
   */
  history?: string[];
  hasTools: boolean;
  model: string;
  /** Sent by skillgym's replay (`--screen replay`), not by the agent: its header names the run it stands for. */
  replay?: { runNumber?: number };
}

/** One message of a request as plain texts (tool results included), with its role. */
export interface TextMessage {
  role: string | undefined;
  texts: string[];
  /** The message answers a tool call (Anthropic's `tool_result` blocks): it is no prompt of the user's. */
  toolResult?: boolean;
}

/** A request read into the conversation model: what the session model answers. */
export interface SimRequest {
  conversation: Conversation;
  /** Where a judge prompt carries its marker. */
  judgeText: string;
  /** The agent run the request belongs to: its turns share one decision. */
  session: string;
}

const SKILLS_HEADER = "The following skills are available for use with the Skill tool";

function isHarnessText(text: string): boolean {
  const trimmed = text.trimStart();
  return trimmed.startsWith("<system-reminder>") || trimmed.startsWith("<command-");
}

const isPrompt = (message: TextMessage) =>
  message.role === "user" && message.toolResult !== true && message.texts.some((t) => !isHarnessText(t));

/**
 * Where the prompt of this run is when the wire marks tool results: the last message of the user's that answers no
 * tool call. The messages before it are a prior conversation the run continues.
 */
export function lastPromptIndex(messages: readonly TextMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (isPrompt(messages[i]!)) return i;
  return -1;
}

/** The user's first prompt: the first user message with text beyond the harness's reminders and commands. */
export function firstPrompt(messages: readonly TextMessage[]): string {
  for (const message of messages) {
    if (message.role !== "user") continue;
    const texts = message.texts.filter((t) => !isHarnessText(t));
    if (texts.length > 0) return texts.join("\n").trim();
  }
  return "";
}

export function parseSkillList(text: string): ListedSkill[] {
  const at = text.indexOf(SKILLS_HEADER);
  if (at < 0) return [];
  const skills: ListedSkill[] = [];
  const lines = text.slice(at).split(/\r?\n/).slice(1);
  for (const line of lines) {
    if (line.trim() === "") {
      if (skills.length > 0) break;
      continue;
    }
    // `- name: description`, or `- name` alone when Claude Code is short of listing budget; names may be `plugin:skill`.
    const match = /^- (\S+?)(?:: (.*))?$/.exec(line);
    if (!match) break;
    skills.push({ name: match[1]!, description: match[2] ?? "" });
  }
  return skills;
}

export function conversationOf(request: {
  system: readonly string[];
  messages: readonly TextMessage[];
  hasTools: boolean;
  model: string | undefined;
  /** The listed skills and working directory, when the wire's own format was already read (else Claude Code's). */
  skills?: ListedSkill[];
  cwd?: string;
  /** The wire marks tool results, so the run's prompt is the last prompt and the turns before it are history. */
  marksToolResults?: boolean;
}): Conversation {
  const all = request.messages;
  const at = request.marksToolResults ? lastPromptIndex(all) : -1;
  const earlier = at > 0 ? all.slice(0, at) : [];
  const messages = at > 0 ? all.slice(at) : all;
  const allTexts = [...request.system, ...all.flatMap((m) => m.texts)];
  let skills: ListedSkill[] = request.skills ?? [];
  let cwd: string | undefined = request.cwd;
  for (const text of allTexts) {
    if (skills.length === 0 && text.includes(SKILLS_HEADER)) skills = parseSkillList(text);
    if (cwd === undefined) {
      const match = /Primary working directory: (.+)/.exec(text);
      if (match) cwd = match[1]!.trim();
    }
  }
  return {
    prompt: firstPrompt(messages),
    cwd,
    skills,
    turn: messages.filter((m) => m.role === "assistant").length,
    ...(earlier.length > 0
      ? { history: earlier.flatMap((m) => m.texts.filter((t) => !isHarnessText(t))) }
      : {}),
    hasTools: request.hasTools,
    model: request.model ?? "unknown",
  };
}

/** The session an agent names in a header, else one per prompt. */
export function sessionOf(header: string | string[] | undefined, prompt: string): string {
  if (typeof header === "string" && header) return header;
  return `prompt-${createHash("sha256").update(prompt).digest("hex").slice(0, 12)}`;
}
