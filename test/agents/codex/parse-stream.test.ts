import { describe, expect, it } from "vitest";
import {
  codexUsage,
  commandKind,
  createCodexParser,
  parseCodexTranscript,
  statusIn,
} from "../../../src/agents/codex/parse-stream.js";
import { innerCommand, programsOf, skillReadBy, systemSkills } from "../../../src/agents/codex/skill-load.js";

const line = (value: unknown) => JSON.stringify(value);

describe("createCodexParser", () => {
  it("reads a whole run into exact events", () => {
    const transcript = [
      { type: "thread.started", thread_id: "th-1" },
      { type: "turn.started" },
      {
        type: "item.started",
        item: { id: "i1", type: "command_execution", command: "bash -lc 'cat a.txt'" },
      },
      {
        type: "item.updated",
        item: { id: "i1", type: "command_execution", command: "bash -lc 'cat a.txt'" },
      },
      {
        type: "item.completed",
        item: {
          id: "i1",
          type: "command_execution",
          command: "bash -lc 'cat a.txt'",
          aggregated_output: "A",
          exit_code: 0,
        },
      },
      { type: "item.started", item: { id: "i2", type: "agent_message", text: "part" } },
      { type: "item.completed", item: { id: "i2", type: "agent_message", text: "Writing." } },
      {
        type: "item.completed",
        item: {
          id: "i3",
          type: "file_change",
          changes: [
            { path: "/w/a", kind: "add" },
            { path: "/w/b", kind: "update" },
          ],
          status: "completed",
        },
      },
      { type: "item.completed", item: { id: "i4", type: "web_search", query: "haiku" } },
      {
        type: "item.completed",
        item: {
          id: "i5",
          type: "mcp_tool_call",
          server: "docs",
          tool: "find",
          arguments: { q: 1 },
          status: "failed",
          error: { message: "no server" },
        },
      },
      {
        type: "item.completed",
        item: {
          id: "i6",
          type: "command_execution",
          command: "make",
          aggregated_output: "boom",
          exit_code: 2,
        },
      },
      { type: "item.completed", item: { id: "i7", type: "reasoning", text: "hm" } },
      { type: "item.completed", item: { id: "i8" } },
      { type: "item.completed", item: { id: "i9", type: "agent_message", text: "Done." } },
      {
        type: "turn.completed",
        usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 9, cache_write_input_tokens: 3 },
      },
      { type: "item.completed" },
      {},
      [1],
    ];
    const text = `${transcript.map(line).join("\n")}\nnot json\n\n`;
    expect(parseCodexTranscript(text)).toEqual([
      { kind: "init", model: "", tools: [], skills: [], sessionId: "th-1" },
      { kind: "unknown", type: "turn.started" },
      {
        kind: "tool_use",
        id: "i1",
        messageId: "response_1",
        name: "exec_command",
        input: { command: "bash -lc 'cat a.txt'" },
        tool: "read",
      },
      { kind: "tool_result", toolUseId: "i1", isError: false, content: "A" },
      { kind: "text", text: "Writing.", messageId: "response_2" },
      {
        kind: "tool_use",
        id: "i3",
        messageId: "response_2",
        name: "apply_patch",
        input: {
          changes: [
            { path: "/w/a", kind: "add" },
            { path: "/w/b", kind: "update" },
          ],
        },
        tool: "edit",
      },
      { kind: "tool_result", toolUseId: "i3", isError: false, content: "" },
      {
        kind: "tool_use",
        id: "i4",
        messageId: "response_3",
        name: "web_search",
        input: { query: "haiku" },
        tool: "search",
      },
      { kind: "tool_result", toolUseId: "i4", isError: false, content: "" },
      {
        kind: "tool_use",
        id: "i5",
        messageId: "response_4",
        name: "docs.find",
        input: { q: 1 },
        tool: "other",
      },
      { kind: "tool_result", toolUseId: "i5", isError: true, content: "no server" },
      {
        kind: "tool_use",
        id: "i6",
        messageId: "response_5",
        name: "exec_command",
        input: { command: "make" },
        tool: "shell",
      },
      { kind: "tool_result", toolUseId: "i6", isError: true, content: "boom" },
      { kind: "unknown", type: "item.completed:reasoning" },
      { kind: "unknown", type: "item.completed:untyped" },
      { kind: "text", text: "Done.", messageId: "response_6" },
      {
        kind: "result",
        isError: false,
        subtype: "success",
        text: "Done.",
        numTurns: 6,
        usage: { inputTokens: 60, outputTokens: 9, cacheReadTokens: 40, cacheWriteTokens: 3 },
      },
      { kind: "unknown", type: "item.completed" },
      { kind: "unknown", type: "untyped" },
      { kind: "unknown", type: "non-object" },
      { kind: "unknown", type: "non-json" },
    ]);
  });

  it("a file change that only adds files is a write; one without changes an edit; an MCP call without arguments has none", () => {
    const parse = createCodexParser();
    expect(
      parse(
        line({
          type: "item.started",
          item: { id: "f", type: "file_change", changes: [{ kind: "add" }, { kind: "add" }] },
        }),
      ),
    ).toEqual([
      {
        kind: "tool_use",
        id: "f",
        messageId: "response_1",
        name: "apply_patch",
        input: { changes: [{ kind: "add" }, { kind: "add" }] },
        tool: "write",
      },
    ]);
    expect(parse(line({ type: "item.started", item: { id: "g", type: "file_change" } }))).toEqual([
      { kind: "tool_use", id: "g", messageId: "response_1", name: "apply_patch", input: {}, tool: "edit" },
    ]);
    expect(
      parse(line({ type: "item.started", item: { id: "h", type: "mcp_tool_call", arguments: [1] } })),
    ).toEqual([{ kind: "tool_use", id: "h", messageId: "response_1", name: ".", input: {}, tool: "other" }]);
    expect(
      parse(
        line({
          type: "item.started",
          item: { id: "k", type: "file_change", changes: [{ kind: "add" }, "x"] },
        }),
      ),
    ).toEqual([
      {
        kind: "tool_use",
        id: "k",
        messageId: "response_1",
        name: "apply_patch",
        input: { changes: [{ kind: "add" }, "x"] },
        tool: "edit",
      },
    ]);
    // A command still running at exit 0 of nothing: its exit code is missing, read as 0.
    expect(
      parse(line({ type: "item.completed", item: { id: "c", type: "command_execution", command: "ls" } })),
    ).toEqual([
      {
        kind: "tool_use",
        id: "c",
        messageId: "response_1",
        name: "exec_command",
        input: { command: "ls" },
        tool: "search",
      },
      { kind: "tool_result", toolUseId: "c", isError: false, content: "" },
    ]);
    expect(parse(line({ type: "item.started", item: "x" }))).toEqual([
      { kind: "unknown", type: "item.started" },
    ]);
  });

  it("follows a command reading a SKILL.md with a skill_load", () => {
    const parse = createCodexParser();
    expect(
      parse(
        line({
          type: "item.started",
          item: { id: "s", type: "command_execution", command: "cat .agents/skills/haiku/SKILL.md" },
        }),
      ),
    ).toEqual([
      {
        kind: "tool_use",
        id: "s",
        messageId: "response_1",
        name: "exec_command",
        input: { command: "cat .agents/skills/haiku/SKILL.md" },
        tool: "read",
      },
      { kind: "skill_load", skill: "haiku", via: "read", toolUseId: "s" },
    ]);
  });

  it("a failed turn: its message, turns so far and HTTP status", () => {
    const parse = createCodexParser();
    expect(
      parse(line({ type: "turn.failed", error: { message: "unexpected status 529 Overloaded" } })),
    ).toEqual([
      {
        kind: "result",
        isError: true,
        subtype: "error",
        text: "unexpected status 529 Overloaded",
        numTurns: 0,
        apiErrorStatus: 529,
      },
    ]);
    expect(parse(line({ type: "turn.failed" }))).toStrictEqual([
      { kind: "result", isError: true, subtype: "error", text: "", numTurns: 0 },
    ]);
  });

  it("a turn without a message ends in no text", () => {
    expect(createCodexParser()(line({ type: "turn.completed" }))).toEqual([
      {
        kind: "result",
        isError: false,
        subtype: "success",
        text: "",
        numTurns: 0,
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
    ]);
  });

  it("reads an item only from the item events; only a command's exit code fails it", () => {
    const parse = createCodexParser();
    expect(
      parse(line({ type: "item.removed", item: { id: "m", type: "agent_message", text: "gone" } })),
    ).toEqual([{ kind: "unknown", type: "item.removed" }]);
    expect(
      parse(
        line({
          type: "item.completed",
          item: { id: "w", type: "web_search", query: "q", status: "completed", exit_code: 1 },
        }),
      ),
    ).toEqual([
      {
        kind: "tool_use",
        id: "w",
        messageId: "response_1",
        name: "web_search",
        input: { query: "q" },
        tool: "search",
      },
      { kind: "tool_result", toolUseId: "w", isError: false, content: "" },
    ]);
  });
});

describe("codexUsage and statusIn", () => {
  it("counts cached input apart, never below zero", () => {
    expect(codexUsage({ input_tokens: 10, cached_input_tokens: 30, output_tokens: "x" })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 30,
      cacheWriteTokens: 0,
    });
    expect(codexUsage(undefined)).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(codexUsage({ input_tokens: Number.POSITIVE_INFINITY, output_tokens: 4 })).toEqual({
      inputTokens: 0,
      outputTokens: 4,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it("reads a status after 'status' with or without a colon", () => {
    expect(statusIn("last status: 429 Too Many Requests")).toBe(429);
    expect(statusIn("unexpected STATUS 503")).toBe(503);
    expect(statusIn("last status:  502 Bad Gateway")).toBe(502);
    expect(statusIn("status 5033")).toBeUndefined();
    expect(statusIn("status:503")).toBeUndefined();
    expect(statusIn("error 429")).toBeUndefined();
  });
});

describe("commandKind", () => {
  it("a read, a search, or shell", () => {
    expect(commandKind("")).toBe("shell");
    expect(commandKind("cat a | wc -l")).toBe("read");
    expect(commandKind("rg x | head")).toBe("search");
    expect(commandKind("find . && ls")).toBe("search");
    expect(commandKind("cat a; rm b")).toBe("shell");
    expect(commandKind("/usr/bin/tail -f log")).toBe("read");
  });
});

describe("Codex's skill reads", () => {
  it("unwraps the shell Codex reports", () => {
    expect(innerCommand("/bin/bash -lc 'cat a'\\''b'")).toBe("cat a'b");
    expect(innerCommand('bash -c "cat x"')).toBe("cat x");
    expect(innerCommand("  /bin/zsh -lc 'ls'  ")).toBe("ls");
    expect(innerCommand("sh -c 'ls'")).toBe("ls");
    expect(innerCommand("bash -lc 'ls\"")).toBe("bash -lc 'ls\"");
    expect(innerCommand("cat file")).toBe("cat file");
  });

  it("lists each stage's program", () => {
    expect(programsOf("/bin/cat a | grep b && ls || echo x; make & wait\nnl y")).toEqual([
      "cat",
      "grep",
      "ls",
      "echo",
      "make",
      "wait",
      "nl",
    ]);
    expect(programsOf("  ")).toEqual([]);
  });

  it("finds the skill a reader prints, not a built-in one, nor a skill named by a writer", () => {
    expect(skillReadBy("/bin/bash -lc \"sed -n '1,200p' /w/.agents/skills/haiku/SKILL.md\"")).toBe("haiku");
    expect(skillReadBy("cat r1/pdf/SKILL.md")).toBe("pdf");
    expect(skillReadBy("cat $CODEX_HOME/skills/.system/imagegen/SKILL.md")).toBeUndefined();
    expect(skillReadBy("cat skills/.system/imagegen/SKILL.md skills/haiku/SKILL.md")).toBe("haiku");
    expect(skillReadBy("cp skills/haiku/SKILL.md /tmp")).toBeUndefined();
    expect(skillReadBy("cat skills/haiku/SKILL.md.bak")).toBeUndefined();
    expect(skillReadBy("cat myskills/haiku/SKILL.md")).toBeUndefined();
    expect(skillReadBy("cat 'skills/haiku/SKILL.md'|head")).toBe("haiku");
    expect(systemSkills).toEqual(["imagegen", "openai-docs", "skill-creator", "skill-installer"]);
  });
});
