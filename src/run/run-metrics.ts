import type { AgentEvent } from "../agents/events.js";

export interface RunMetrics {
  tool_calls: Record<string, number>;
  total_tool_calls: number;
  total_steps: number;
  files_created: string[];
  /** Ours: files the run changed and removed, so a re-grade can rebuild the finished workspace. */
  files_modified: string[];
  files_deleted: string[];
  errors_encountered: number;
  output_chars: number;
  transcript_chars: number;
}

/** metrics.json (seed schema) from a run's events and the files it left. */
export function runMetrics(
  events: readonly AgentEvent[],
  files: { created: string[]; modified: string[]; deleted: string[]; chars: number },
  transcriptChars: number,
  runFailed: boolean,
): RunMetrics {
  const toolCalls: Record<string, number> = {};
  const messages = new Set<string>();
  let anonymousSteps = 0;
  let errors = runFailed ? 1 : 0;
  for (const event of events) {
    if (event.kind === "tool_use") toolCalls[event.name] = (toolCalls[event.name] ?? 0) + 1;
    if (event.kind === "text" || event.kind === "tool_use") {
      if (event.messageId) messages.add(event.messageId);
      else anonymousSteps++;
    }
    if (event.kind === "tool_result" && event.isError) errors++;
  }
  return {
    tool_calls: toolCalls,
    total_tool_calls: Object.values(toolCalls).reduce((a, b) => a + b, 0),
    total_steps: messages.size + anonymousSteps,
    files_created: files.created,
    files_modified: files.modified,
    files_deleted: files.deleted,
    errors_encountered: errors,
    output_chars: files.chars,
    transcript_chars: transcriptChars,
  };
}
