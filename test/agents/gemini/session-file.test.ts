import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { geminiArgs } from "../../../src/agents/gemini/args.js";
import { sessionFileOf, sessionLines, writeSessionFile } from "../../../src/agents/gemini/session-file.js";
import { createAgent } from "../../../src/agents/registry.js";
import { tempDir } from "../../e2e/helpers.js";

const turns = [
  { role: "user" as const, content: "Look at the parser." },
  { role: "assistant" as const, content: "Done. The notes are written." },
  { role: "user" as const, content: "Thanks." },
  { role: "assistant" as const, content: "You're welcome." },
];

describe("a prior conversation as a Gemini CLI session file", () => {
  it("opens with the session's metadata, then one message per turn: user, and gemini for the assistant", () => {
    const lines = sessionLines(turns, "sid").map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      sessionId: "sid",
      projectHash: "skillgym-context",
      startTime: "2025-01-01T00:00:00.000Z",
      lastUpdated: "2025-01-01T00:00:04.000Z",
    });
    expect(lines.slice(1)).toEqual([
      {
        id: "context-0",
        timestamp: "2025-01-01T00:00:00.000Z",
        type: "user",
        content: [{ text: "Look at the parser." }],
      },
      {
        id: "context-1",
        timestamp: "2025-01-01T00:00:01.000Z",
        type: "gemini",
        content: [{ text: "Done. The notes are written." }],
      },
      {
        id: "context-2",
        timestamp: "2025-01-01T00:00:02.000Z",
        type: "user",
        content: [{ text: "Thanks." }],
      },
      {
        id: "context-3",
        timestamp: "2025-01-01T00:00:03.000Z",
        type: "gemini",
        content: [{ text: "You're welcome." }],
      },
    ]);
  });

  it("writes the file into the run's home, and only there, for --session-file to load", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const home = join(dir, "home");
      await mkdir(home);
      const file = await writeSessionFile(home, turns);
      expect(file).toBe(sessionFileOf(home));
      expect(await readdir(dir)).toEqual(["home"]);
      expect(await readdir(home)).toEqual(["skillgym-context.jsonl"]);
      const lines = (await readFile(file, "utf8"))
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(5);
      expect(lines[0].sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.slice(1).map((l) => l.content[0].text)).toEqual(turns.map((t) => t.content));
      const args = geminiArgs({ prompt: "q", model: "m", policyFile: "/p", sessionFile: file });
      expect(args.slice(args.indexOf("--session-file"))).toEqual(["--session-file", file]);
      // The prompt stays the query alone: the history is never pasted into it.
      expect(args[args.indexOf("-p") + 1]).toBe("q");
      expect(geminiArgs({ prompt: "q", model: "m", policyFile: "/p" })).not.toContain("--session-file");
    } finally {
      await cleanup();
    }
  });

  it("makes the Gemini CLI agent one that continues conversations", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const agent = await createAgent("gemini", {
        env: { PATH: "", HOME: dir },
        simulatorUrl: "http://127.0.0.1:9",
      });
      expect(agent.continuesConversations).toBe(true);
    } finally {
      await cleanup();
    }
  });
});
