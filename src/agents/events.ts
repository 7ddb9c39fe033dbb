import type { ToolKind } from "./tool-kind.js";

/** Token counts of a model's work; every adapter maps its agent's own names to these at its edge. */
export interface TokenUsage {
  /** Input tokens neither read from nor written to the prompt cache. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the prompt cache. */
  cacheReadTokens: number;
  /** Input tokens written to the prompt cache. */
  cacheWriteTokens: number;
}

/** What a tool call does, whatever the agent calls the tool. */
export type { ToolKind } from "./tool-kind.js";

// The one event type every agent adapter turns its own stream into.
export type AgentEvent =
  | {
      kind: "init";
      model: string;
      tools: string[];
      skills: string[];
      sessionId?: string;
      version?: string;
      /** The permission, sandbox or approval mode the agent ran in, when the adapter chose one. */
      mode?: string;
    }
  | { kind: "text"; text: string; messageId?: string }
  | {
      kind: "tool_use";
      id: string;
      /** The agent's own name of the tool. */
      name: string;
      input: Record<string, unknown>;
      messageId?: string;
      /** Set by every adapter; absent only in events built before adapters normalised them. */
      tool?: ToolKind;
    }
  | { kind: "tool_result"; toolUseId: string; isError: boolean; content: string }
  /** A skill loaded: by the agent's skill tool ("tool") or by reading its SKILL.md ("read"). */
  | { kind: "skill_load"; skill: string; via: "tool" | "read"; toolUseId?: string }
  | {
      kind: "result";
      isError: boolean;
      subtype: string;
      text: string;
      numTurns?: number;
      durationMs?: number;
      costUsd?: number;
      usage?: TokenUsage;
      apiErrorStatus?: number;
    }
  /**
   * What skillgym refused the agent (an ACP agent's permission request, file read or write, or other request):
   * a path outside the workspace, the web, a write in a read-only run. The agent is told; the run goes on.
   */
  | {
      kind: "refused";
      what: "permission" | "read" | "write" | "request";
      /** The path, tool or method refused. */
      target: string;
      reason: string;
      toolUseId?: string;
    }
  /** Token counts streamed while a message is generated: "start" carries input and cache, "delta" the output so far. */
  | { kind: "usage"; phase: "start" | "delta"; usage: TokenUsage; messageId?: string }
  | { kind: "unknown"; type: string };

export type ToolUseEvent = Extract<AgentEvent, { kind: "tool_use" }>;

export function totalTokens(usage: TokenUsage | undefined): number {
  if (!usage) return 0;
  return usage.inputTokens + usage.outputTokens + usage.cacheWriteTokens + usage.cacheReadTokens;
}
