import type { Agent } from "./agent.js";
import { createClaudeCodeAgent } from "./claude-code/agent.js";
import { claudeBuiltinSkills } from "./claude-code/builtin-skills.js";
import { describeLogin } from "./claude-code/credentials.js";
import { parseTranscript } from "./claude-code/normalise.js";
import { skillLoadedBy } from "./claude-code/skill-load.js";
import { claudeToolKind } from "./claude-code/tool-kinds.js";
import { createCodexAgent } from "./codex/agent.js";
import { describeCodexLogin } from "./codex/credentials.js";
import { parseCodexTranscript } from "./codex/parse-stream.js";
import { systemSkills as codexBuiltinSkills } from "./codex/skill-load.js";
import type { AgentEvent, ToolUseEvent } from "./events.js";
import { geminiEntry } from "./gemini/entry.js";

export interface AgentFactoryOptions {
  /** Path of the agent's binary; default: the one installed with skillgym, then PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; every run then talks to it and needs no credentials. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
}

interface AgentEntry {
  create(options: AgentFactoryOptions): Promise<Agent>;
  /** A stored raw transcript as normalised events. */
  parseTranscript(text: string): AgentEvent[];
  /** Where the agent's login comes from; throws as a run would when there is none. */
  describeLogin(): Promise<string>;
  /** The skills the agent brings itself: in every run's list, never ours and never a leak. */
  builtinSkills: readonly string[];
}

const agents = {
  "claude-code": {
    create: createClaudeCodeAgent,
    parseTranscript,
    describeLogin: () => describeLogin(),
    builtinSkills: claudeBuiltinSkills,
  },
  codex: {
    create: createCodexAgent,
    parseTranscript: parseCodexTranscript,
    describeLogin: () => describeCodexLogin(),
    builtinSkills: codexBuiltinSkills,
  },
  gemini: geminiEntry,
} satisfies Record<string, AgentEntry>;

export type AgentName = keyof typeof agents;
export const agentNames = Object.keys(agents) as AgentName[];
/** The agent of run folders that recorded none (only Claude Code existed then). */
export const defaultAgentName: AgentName = "claude-code";

function entry(name: string): AgentEntry {
  const found = (agents as Record<string, AgentEntry>)[name];
  if (!found) throw new Error(`unknown agent "${name}" (known: ${agentNames.join(", ")})`);
  return found;
}

export async function createAgent(name: string, options: AgentFactoryOptions = {}): Promise<Agent> {
  return entry(name).create(options);
}

/** The normalised events of a raw transcript written by the named agent. */
export function parseStoredTranscript(name: string, text: string): AgentEvent[] {
  return entry(name).parseTranscript(text);
}

/** The named agent's own skills; none for a name no adapter has. */
export function builtinSkillsOf(name: string | undefined): readonly string[] {
  return (name && (agents as Record<string, AgentEntry>)[name]?.builtinSkills) || [];
}

/** Where the named agent's login comes from, checked before a run (`--dry-run`). */
export function agentLogin(name: string): Promise<string> {
  return entry(name).describeLogin();
}

/**
 * The skill an event loads, if it loads one: a `skill_load` event. A tool call without a normalised kind was
 * built before adapters emitted `skill_load` (only Claude Code's existed then), so Claude Code's rule reads it.
 */
export function skillLoadOf(event: AgentEvent): string | undefined {
  if (event.kind === "skill_load") return event.skill;
  if (event.kind === "tool_use" && event.tool === undefined) return skillLoadedBy(event);
  return undefined;
}

/** Whether a tool call is the one a check names: by the agent's own tool name or by its normalised kind. */
export function isToolNamed(event: ToolUseEvent, name: string): boolean {
  if (event.name === name || event.tool === name) return true;
  // Suites written for Claude Code name its tools ("Read", "Bash"): another agent's call of that kind is that tool.
  const kind = claudeToolKind(name);
  return kind !== undefined && claudeToolKind(event.name) === undefined && event.tool === kind;
}
