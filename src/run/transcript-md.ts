import type { AgentEvent } from "../agents/events.js";

function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
}

function clip(text: string, max = 4000): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

export interface TranscriptOptions {
  /** A run against skillgym sim: the agent's own cost figure is for a model that never ran, so $0 is shown. */
  simulated?: boolean;
}

function costNote(costUsd: number | undefined, simulated: boolean): string {
  if (simulated) return ", cost $0 (simulated)";
  return costUsd !== undefined ? `, cost $${costUsd.toFixed(4)}` : "";
}

/** A readable transcript of a run: the prompt, each step, each tool call with its input and result. */
export function transcriptMarkdown(
  prompt: string,
  events: readonly AgentEvent[],
  heading: string,
  options: TranscriptOptions = {},
): string {
  const parts: string[] = [`# ${heading}`, "", "## Prompt", "", fence(prompt), ""];
  let step = 0;
  let lastMessage: string | undefined;
  for (const event of events) {
    if (event.kind === "init") {
      parts.push(`_Agent model: ${event.model || "unknown"}; skills available: ${event.skills.length}_`, "");
    } else if (event.kind === "text" || event.kind === "tool_use") {
      if (event.messageId === undefined || event.messageId !== lastMessage) {
        step++;
        parts.push(`## Step ${step}`, "");
        lastMessage = event.messageId;
      }
      if (event.kind === "text") parts.push(event.text, "");
      else
        parts.push(`**Tool call: ${event.name}**`, "", fence(clip(JSON.stringify(event.input, null, 2))), "");
    } else if (event.kind === "refused") {
      parts.push(`**Refused by skillgym (${event.what} ${event.target}):** ${event.reason}`, "");
    } else if (event.kind === "tool_result") {
      parts.push(`**Result${event.isError ? " (error)" : ""}:**`, "", fence(clip(event.content)), "");
    } else if (event.kind === "result") {
      const cost = costNote(event.costUsd, options.simulated === true);
      parts.push(
        "## Result",
        "",
        `${event.isError ? "Error" : "Finished"} (${event.subtype}) after ${event.numTurns ?? "?"} turns${cost}.`,
        "",
        event.text ? fence(clip(event.text)) : "",
        "",
      );
    }
  }
  return parts.join("\n");
}
