import { randomUUID } from "node:crypto";
import { mkdir, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Claude Code's folder name for a working directory under `~/.claude/projects/`: every other character a dash. */
export const projectSlug = (cwd: string) => cwd.replace(/[^a-zA-Z0-9]/g, "-");

/**
 * The lines of a Claude Code session transcript holding a prior conversation: one entry per turn, each naming its
 * parent, as Claude Code 2.1 writes them; `claude --resume <id>` reads them back as the conversation's history.
 */
export function sessionLines(
  turns: readonly { role: "user" | "assistant"; content: string }[],
  sessionId: string,
  cwd: string,
  newId: () => string = randomUUID,
): string[] {
  let parent: string | null = null;
  return turns.map((turn, i) => {
    const uuid = newId();
    const timestamp = new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
    const message =
      turn.role === "user"
        ? { role: "user", content: turn.content }
        : {
            id: `msg_context_${i}`,
            type: "message",
            role: "assistant",
            model: "context",
            content: [{ type: "text", text: turn.content }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 0 },
          };
    const entry = {
      parentUuid: parent,
      isSidechain: false,
      type: turn.role,
      message,
      uuid,
      timestamp,
      userType: "external",
      cwd,
      sessionId,
    };
    parent = uuid;
    return JSON.stringify(entry);
  });
}

/**
 * Writes the prior conversation into the run's home as a session of the run's working directory, and returns the id
 * to pass to `--resume`. The home is the run's own, so nothing of the user's is read or written.
 */
export async function writeSessionFile(
  home: string,
  cwd: string,
  turns: readonly { role: "user" | "assistant"; content: string }[],
): Promise<string> {
  const id = randomUUID();
  // Claude Code names the folder after its working directory as the process sees it: links resolved.
  const real = await realpath(cwd).catch(() => cwd);
  const dir = join(home, ".claude", "projects", projectSlug(real));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${id}.jsonl`), `${sessionLines(turns, id, real).join("\n")}\n`);
  return id;
}
