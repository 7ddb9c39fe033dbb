import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeArgs } from "../../../src/agents/claude-code/args.js";
import { projectSlug, sessionLines, writeSessionFile } from "../../../src/agents/claude-code/session-file.js";
import { tempDir } from "../../e2e/helpers.js";

const turns = [
  { role: "user" as const, content: "Look at the parser." },
  { role: "assistant" as const, content: "Done." },
];

describe("a prior conversation as a Claude Code session", () => {
  it("names the folder after the working directory as Claude Code does", () => {
    expect(projectSlug("/tmp/ccprobe/cwd")).toBe("-tmp-ccprobe-cwd");
    expect(projectSlug("/a/b.c_d e")).toBe("-a-b-c-d-e");
  });

  it("chains the turns by parent, user text first and assistant text blocks after", () => {
    let n = 0;
    const lines = sessionLines(turns, "sid", "/w", () => `u${++n}`).map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.type, l.uuid, l.parentUuid, l.sessionId, l.cwd])).toEqual([
      ["user", "u1", null, "sid", "/w"],
      ["assistant", "u2", "u1", "sid", "/w"],
    ]);
    expect(lines[0].message).toEqual({ role: "user", content: "Look at the parser." });
    expect(lines[1].message.content).toEqual([{ type: "text", text: "Done." }]);
  });

  it("writes every entry with the fields Claude Code 2.1 reads back, an assistant turn as a finished message", () => {
    let n = 0;
    const lines = sessionLines([...turns, ...turns], "sid", "/w", () => `u${++n}`).map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      parentUuid: null,
      isSidechain: false,
      type: "user",
      message: { role: "user", content: "Look at the parser." },
      uuid: "u1",
      timestamp: "2025-01-01T00:00:00.000Z",
      userType: "external",
      cwd: "/w",
      sessionId: "sid",
    });
    expect(lines[3]).toEqual({
      parentUuid: "u3",
      isSidechain: false,
      type: "assistant",
      message: {
        id: "msg_context_3",
        type: "message",
        role: "assistant",
        model: "context",
        content: [{ type: "text", text: "Done." }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
      uuid: "u4",
      timestamp: "2025-01-01T00:00:03.000Z",
      userType: "external",
      cwd: "/w",
      sessionId: "sid",
    });
  });

  it("writes the session into the run's home and resumes it by its id", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const id = await writeSessionFile(join(dir, "home"), dir, turns);
      const file = join(dir, "home", ".claude", "projects", projectSlug(await realpath(dir)), `${id}.jsonl`);
      expect((await readFile(file, "utf8")).trim().split("\n")).toHaveLength(2);
      const args = claudeArgs({ prompt: "q", resume: id });
      expect(args.slice(args.indexOf("--resume"))).toEqual(["--resume", id]);
      expect(claudeArgs({ prompt: "q" })).not.toContain("--resume");
    } finally {
      await cleanup();
    }
  });
});
