// What the simulator reads out of one Messages API request that Claude Code sent.
export interface ListedSkill {
  name: string;
  description: string;
}

export interface Conversation {
  prompt: string;
  cwd: string | undefined;
  skills: ListedSkill[];
  /** Number of assistant turns already in the conversation: the index of the turn to produce now. */
  turn: number;
  hasTools: boolean;
  model: string;
}

interface Block {
  type?: string;
  text?: string;
  content?: unknown;
}

interface Message {
  role?: string;
  content?: string | Block[];
}

export interface MessagesRequest {
  model?: string;
  system?: string | Block[];
  messages?: Message[];
  tools?: unknown[];
  stream?: boolean;
}

const SKILLS_HEADER = "The following skills are available for use with the Skill tool";

function textsOf(content: string | Block[] | undefined): string[] {
  if (content === undefined) return [];
  if (typeof content === "string") return [content];
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block.text === "string") texts.push(block.text);
    else if (block.type === "tool_result") {
      const inner = block.content;
      if (typeof inner === "string") texts.push(inner);
      else if (Array.isArray(inner)) texts.push(...textsOf(inner as Block[]));
    }
  }
  return texts;
}

function isHarnessText(text: string): boolean {
  const trimmed = text.trimStart();
  return trimmed.startsWith("<system-reminder>") || trimmed.startsWith("<command-");
}

function firstPrompt(messages: Message[]): string {
  for (const message of messages) {
    if (message.role !== "user") continue;
    const texts = textsOf(message.content).filter((t) => !isHarnessText(t));
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

/** The system prompt and the user's first prompt: where a judge prompt carries its marker. */
export function promptText(request: MessagesRequest): string {
  return [...textsOf(request.system), firstPrompt(request.messages ?? [])].join("\n");
}

export function readConversation(request: MessagesRequest): Conversation {
  const messages = request.messages ?? [];
  const allTexts = [...textsOf(request.system), ...messages.flatMap((m) => textsOf(m.content))];
  let skills: ListedSkill[] = [];
  let cwd: string | undefined;
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
    hasTools: Array.isArray(request.tools) && request.tools.length > 0,
    model: request.model ?? "unknown",
  };
}
