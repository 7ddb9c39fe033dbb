import { expectationsBlock } from "../contracts/judge-markers.js";
import type { OutputFile } from "../runlog/output-files.js";
import type { RunSnapshot } from "./read-run.js";

/** A fence longer than any run of backticks inside, so output text cannot close it early. */
export function fence(text: string, info = ""): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}${info}\n${text}\n${ticks}`;
}

export interface PresentOptions {
  /** Applied to every text shown (the blind comparator hides which run is which). */
  transform?: (text: string) => string;
  /** Characters of file content shown at most, over all files. */
  maxChars?: number;
  /** Default true; the analyzer sees the final message in the transcript already. */
  finalMessage?: boolean;
}

/** The run's final message and output files as Markdown sections under `heading`. */
export function presentOutputs(run: RunSnapshot, heading: string, options: PresentOptions = {}): string {
  const show = options.transform ?? ((text: string) => text);
  let budget = options.maxChars ?? 60_000;
  const parts = [heading, ""];
  if (options.finalMessage ?? true) {
    const message = run.finalMessage ? fence(show(run.finalMessage)) : "(none)";
    parts.push("Final message of the agent:", "", message, "");
  }
  if (run.outputs.length === 0) parts.push("Files: none were created or changed.", "");
  for (const file of run.outputs) {
    const shown = file.content !== undefined && budget > 0 ? file.content.slice(0, budget) : undefined;
    parts.push(`File \`${show(file.path)}\` ${describe(file, shown)}`.trimEnd(), "");
    if (shown !== undefined) {
      parts.push(fence(show(shown)), "");
      budget -= shown.length;
    }
  }
  return parts.join("\n");
}

// Text files get no size: the raw size counts the characters hidden from a blind judge.
function describe(file: OutputFile, shown: string | undefined): string {
  if (file.binary) return `(binary, ${file.bytes} bytes; content not shown)`;
  if (shown === undefined) return "(content not shown: too much output)";
  const clipped = file.clipped || (file.content !== undefined && shown.length < file.content.length);
  return clipped ? "(only the beginning is shown)" : "";
}

/** The task both runs were given; the expectations travel as a JSON array that skillgym sim can read too. */
export function presentTask(prompt: string, expectations: readonly string[]): string {
  const parts = ["## The task both runs were given", "", fence(prompt), ""];
  if (expectations.length > 0) {
    parts.push("## Expectations the output should meet, in this order (a JSON array)", "");
    parts.push(expectationsBlock(expectations), "");
  }
  return parts.join("\n");
}
