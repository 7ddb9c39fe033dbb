import { readFile, writeFile } from "node:fs/promises";
import type { AgentEvent } from "./events.js";
import { type Redactor, redactJson } from "./redact.js";

/** Writes a run's normalised events, one JSON line each, masked like its raw transcript. */
export async function writeEventLog(
  path: string,
  events: readonly AgentEvent[],
  redactor: Redactor,
): Promise<void> {
  const text = events.map((event) => `${JSON.stringify(redactJson(redactor, event))}\n`).join("");
  await writeFile(path, text, "utf8");
}

/** A run's normalised events, or undefined when the run folder has no event log. */
export async function readEventLog(path: string): Promise<AgentEvent[] | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  return text
    .split("\n")
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as AgentEvent];
      } catch {
        return [];
      }
    });
}
