import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

type Turn = { role: "user" | "assistant"; content: string };

/** Where a run's prior conversation goes: in the run's own home, beside its settings and tool policy. */
export const sessionFileOf = (home: string) => join(home, "skillgym-context.jsonl");

/**
 * The lines of a Gemini CLI session holding a prior conversation, as Gemini CLI 0.61 records its chats: a metadata
 * line (`sessionId`, `projectHash`), then one message per turn (`id`, `timestamp`, `type` user|gemini, `content` as
 * parts). `gemini --session-file <file>` loads it, and sends the turns as the history before the query.
 */
export function sessionLines(turns: readonly Turn[], sessionId: string): string[] {
  const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
  // Gemini CLI gives an imported session its own id and project hash; these only make the file a session.
  const metadata = {
    sessionId,
    projectHash: "skillgym-context",
    startTime: at(0),
    lastUpdated: at(turns.length),
  };
  const messages = turns.map((turn, i) => ({
    id: `context-${i}`,
    timestamp: at(i),
    type: turn.role === "user" ? "user" : "gemini",
    content: [{ text: turn.content }],
  }));
  return [metadata, ...messages].map((line) => JSON.stringify(line));
}

/**
 * Writes the prior conversation into the run's home and returns the file to pass to `--session-file`. The home is
 * the run's own, and Gemini CLI copies the session into that home's chats: nothing of the user's is read or written.
 */
export async function writeSessionFile(home: string, turns: readonly Turn[]): Promise<string> {
  const file = sessionFileOf(home);
  await writeFile(file, `${sessionLines(turns, randomUUID()).join("\n")}\n`, "utf8");
  return file;
}
