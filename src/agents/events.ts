// The one event type every agent adapter turns its own stream into.
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type AgentEvent =
  | { kind: "init"; model: string; tools: string[]; skills: string[]; sessionId?: string; version?: string }
  | { kind: "text"; text: string; messageId?: string }
  | { kind: "tool_use"; id: string; name: string; input: Record<string, unknown>; messageId?: string }
  | { kind: "tool_result"; toolUseId: string; isError: boolean; content: string }
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
  /** Token counts streamed while a message is generated: "start" carries input and cache, "delta" the output so far. */
  | { kind: "usage"; phase: "start" | "delta"; usage: TokenUsage; messageId?: string }
  | { kind: "unknown"; type: string };

export function totalTokens(usage: TokenUsage | undefined): number {
  if (!usage) return 0;
  return (
    usage.input_tokens +
    usage.output_tokens +
    usage.cache_creation_input_tokens +
    usage.cache_read_input_tokens
  );
}

/** The skill a tool call loads, if it loads one: a `Skill` call (newer `skill`, older `command`) or a read of SKILL.md. */
export function skillLoadedBy(event: AgentEvent): string | undefined {
  if (event.kind !== "tool_use") return undefined;
  if (event.name === "Skill") {
    const value = event.input.skill ?? event.input.command;
    return typeof value === "string" ? value.replace(/^\//, "") : undefined;
  }
  if (event.name === "Read") {
    const path = event.input.file_path;
    if (typeof path !== "string") return undefined;
    const match = /[\\/]skills[\\/]([^\\/]+)[\\/]SKILL\.md$/i.exec(path);
    return match?.[1];
  }
  return undefined;
}
