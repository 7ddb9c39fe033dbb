import { locateBwrap, type SandboxSpec } from "../sandbox/index.js";
import { isAcpCommand } from "./acp/command.js";
import { acpBuiltinSkills, acpEntry, createAcpCommandAgent } from "./acp/entry.js";
import type { Agent } from "./agent.js";
import { claudeCodeEntry } from "./claude-code/entry.js";
import { codexEntry } from "./codex/entry.js";
import { copilotEntry } from "./copilot/entry.js";
import type { AgentEvent, ToolKind, ToolUseEvent } from "./events.js";
import type { AgentFactoryOptions } from "./factory-options.js";
import { geminiEntry } from "./gemini/entry.js";
import { openCodeEntry } from "./opencode/entry.js";
import { qwenCodeEntry } from "./qwen-code/entry.js";

export type { AgentFactoryOptions };

interface AgentEntry {
  create(options: AgentFactoryOptions): Promise<Agent>;
  /** A stored raw transcript as normalised events. */
  parseTranscript(text: string): AgentEvent[];
  /** Where the agent's login comes from; throws as a run would when there is none. */
  describeLogin(): Promise<string>;
  /** The skills the agent brings itself: in every run's list, never ours and never a leak. */
  builtinSkills: readonly string[];
  /** The skill a tool call loads by the agent's own rule, for events recorded before adapters emitted `skill_load`. */
  skillLoadedBy?(event: ToolUseEvent): string | undefined;
  /** The normalised kind of one of the agent's own tool names; undefined for a name that is none of its tools. */
  toolKind?(name: string): ToolKind | undefined;
  /** The hosts a sandboxed run may reach when it talks to the real API (no simulator). */
  apiHosts: readonly string[];
}

const agents = {
  "claude-code": claudeCodeEntry,
  codex: codexEntry,
  gemini: geminiEntry,
  opencode: openCodeEntry,
  copilot: copilotEntry,
  "qwen-code": qwenCodeEntry,
  acp: acpEntry,
} satisfies Record<string, AgentEntry>;

export type AgentName = keyof typeof agents;
/** The agents named by a name alone; any ACP agent is named by its command (`acp:<command…>`). */
export const agentNames = (Object.keys(agents) as AgentName[]).filter((name) => name !== "acp");
/** How `--agent` help and errors name the ACP form. */
export const ACP_AGENT_FORM = "acp:<command…>";
/** The agent of run folders that recorded none (only Claude Code existed then), and whose tool names suites use. */
export const defaultAgentName: AgentName = "claude-code";

function entry(name: string): AgentEntry {
  // `acp:<command…>` to run one; `acp-<program>` as its runs record it.
  if (isAcpCommand(name)) return { ...acpEntry, create: (options) => createAcpCommandAgent(name, options) };
  if (/^acp-/.test(name)) return { ...acpEntry, builtinSkills: acpBuiltinSkills(name) };
  const found = (agents as Record<string, AgentEntry>)[name];
  if (!found) throw new Error(`unknown agent "${name}" (known: ${agentNames.join(", ")})`);
  return found;
}

export async function createAgent(name: string, options: AgentFactoryOptions = {}): Promise<Agent> {
  const found = entry(name);
  // Never unsandboxed when a sandbox was asked for: no bubblewrap stops the command before the agent is created.
  const bwrap = options.sandbox ? await locateBwrap(options.env) : undefined;
  const created = await found.create(options);
  const agent = options.passEnv?.length ? { ...created, passEnv: options.passEnv } : created;
  if (bwrap === undefined) return agent;
  const sandbox: SandboxSpec = {
    bwrap,
    network: options.simulatorUrl
      ? { kind: "simulator", url: options.simulatorUrl }
      : { kind: "api", hosts: found.apiHosts },
  };
  // A run may narrow its own network (replay's capture run talks to a recording proxy); it never runs unsandboxed.
  return {
    ...agent,
    sandboxed: true,
    sandbox,
    run: (request) => agent.run({ ...request, sandbox: request.sandbox ?? sandbox }),
  };
}

/** The normalised events of a raw transcript written by the named agent. */
export function parseStoredTranscript(name: string, text: string): AgentEvent[] {
  return entry(name).parseTranscript(text);
}

/** The named agent's own skills; none for a name no adapter has. */
export function builtinSkillsOf(name: string | undefined): readonly string[] {
  if (name && (isAcpCommand(name) || /^acp-/.test(name))) return entry(name).builtinSkills;
  return (name && (agents as Record<string, AgentEntry>)[name]?.builtinSkills) || [];
}

/** Where the named agent's login comes from, checked before a run (`--dry-run`). */
export function agentLogin(name: string): Promise<string> {
  return entry(name).describeLogin();
}

/**
 * The skill an event loads, if it loads one: a `skill_load` event. A tool call without a normalised kind was
 * built before adapters emitted `skill_load` (only the default agent existed then), so that agent's rule reads it.
 */
export function skillLoadOf(event: AgentEvent): string | undefined {
  if (event.kind === "skill_load") return event.skill;
  if (event.kind !== "tool_use" || event.tool !== undefined) return undefined;
  return entry(defaultAgentName).skillLoadedBy?.(event);
}

/** Whether a tool call is the one a check names: by the agent's own tool name or by its normalised kind. */
export function isToolNamed(event: ToolUseEvent, name: string): boolean {
  if (event.name === name || event.tool === name) return true;
  // Suites name the default agent's tools ("Read", "Bash"): another agent's call of that kind is that tool.
  const toolKind = entry(defaultAgentName).toolKind;
  const kind = toolKind?.(name);
  return kind !== undefined && toolKind?.(event.name) === undefined && event.tool === kind;
}
