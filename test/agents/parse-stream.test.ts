import { describe, expect, it } from "vitest";
import { parseStreamLine } from "../../src/agents/claude-code/parse-stream.js";
import { skillLoadedBy } from "../../src/agents/claude-code/skill-load.js";
import { type AgentEvent, totalTokens } from "../../src/agents/events.js";

const line = (value: unknown) => JSON.stringify(value);

// Shapes recorded from `claude -p --output-format stream-json --verbose`.
const init = {
  type: "system",
  subtype: "init",
  cwd: "/tmp/ws",
  session_id: "0b6c1f9e-4d0e-4d2c-9a47-1f3c2a6b7d8e",
  tools: ["Task", "Bash", "Read", "Write", "Skill"],
  mcp_servers: [],
  model: "claude-sonnet-4-5-20250929",
  permissionMode: "bypassPermissions",
  slash_commands: ["compact", "pdf-tools"],
  apiKeySource: "ANTHROPIC_API_KEY",
  claude_code_version: "2.1.197",
  output_style: "default",
  agents: ["general-purpose"],
  skills: ["pdf-tools", "debug"],
  plugins: [],
  uuid: "5a0c3f8e-0000-4000-8000-000000000001",
};

const assistant = {
  type: "assistant",
  message: {
    id: "msg_01AbC",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5-20250929",
    content: [
      { type: "text", text: "I'll use the PDF skill." },
      { type: "tool_use", id: "toolu_01", name: "Skill", input: { skill: "pdf-tools" } },
    ],
    stop_reason: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  },
  parent_tool_use_id: null,
  session_id: init.session_id,
  uuid: "5a0c3f8e-0000-4000-8000-000000000002",
};

const userResults = {
  type: "user",
  message: {
    role: "user",
    content: [
      { tool_use_id: "toolu_01", type: "tool_result", content: "Launching skill: pdf-tools" },
      {
        tool_use_id: "toolu_02",
        type: "tool_result",
        content: [
          { type: "text", text: "line one\n" },
          { type: "text", text: "line two" },
        ],
        is_error: true,
      },
    ],
  },
  parent_tool_use_id: null,
  session_id: init.session_id,
  tool_use_result: { stdout: "", stderr: "" },
};

const result = {
  type: "result",
  subtype: "success",
  is_error: true,
  api_error_status: 529,
  duration_ms: 12345,
  duration_api_ms: 9000,
  num_turns: 3,
  result: 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
  session_id: init.session_id,
  total_cost_usd: 0.0123,
  usage: {
    input_tokens: 100,
    cache_creation_input_tokens: 20,
    cache_read_input_tokens: 300,
    output_tokens: 40,
    server_tool_use: { web_search_requests: 0 },
    service_tier: "standard",
  },
  modelUsage: {},
  permission_denials: [],
  uuid: "5a0c3f8e-0000-4000-8000-000000000003",
};

describe("parseStreamLine", () => {
  it("reads system/init", () => {
    expect(parseStreamLine(line(init))).toEqual([
      {
        kind: "init",
        model: "claude-sonnet-4-5-20250929",
        tools: ["Task", "Bash", "Read", "Write", "Skill"],
        skills: ["pdf-tools", "debug"],
        sessionId: init.session_id,
        version: "2.1.197",
      },
    ]);
  });

  it("reads an init line without skills or version", () => {
    const [event] = parseStreamLine(
      line({ type: "system", subtype: "init", model: "m", tools: ["Bash", 3] }),
    );
    expect(event).toEqual({
      kind: "init",
      model: "m",
      tools: ["Bash"],
      skills: [],
      sessionId: undefined,
      version: undefined,
    });
  });

  it("reads an assistant message's text and tool_use blocks, with the message id", () => {
    expect(parseStreamLine(line(assistant))).toEqual([
      { kind: "text", text: "I'll use the PDF skill.", messageId: "msg_01AbC" },
      {
        kind: "tool_use",
        id: "toolu_01",
        name: "Skill",
        input: { skill: "pdf-tools" },
        messageId: "msg_01AbC",
      },
    ]);
  });

  it("reads tool results with string and array content and is_error", () => {
    expect(parseStreamLine(line(userResults))).toEqual([
      { kind: "tool_result", toolUseId: "toolu_01", isError: false, content: "Launching skill: pdf-tools" },
      { kind: "tool_result", toolUseId: "toolu_02", isError: true, content: "line one\nline two" },
    ]);
  });

  it("ignores text the user side sends (the prompt, skill bodies)", () => {
    const prompt = {
      type: "user",
      message: { role: "user", content: [{ type: "text", text: "Base directory…" }] },
    };
    expect(parseStreamLine(line(prompt))).toEqual([]);
    expect(parseStreamLine(line({ type: "user", message: { role: "user", content: "plain" } }))).toEqual([]);
  });

  it("reads the result line", () => {
    expect(parseStreamLine(line(result))).toEqual([
      {
        kind: "result",
        isError: true,
        subtype: "success",
        text: result.result,
        numTurns: 3,
        durationMs: 12345,
        costUsd: 0.0123,
        usage: {
          inputTokens: 100,
          outputTokens: 40,
          cacheWriteTokens: 20,
          cacheReadTokens: 300,
        },
        apiErrorStatus: 529,
      },
    ]);
  });

  it("reads a successful result without the optional fields", () => {
    const [event] = parseStreamLine(
      line({ type: "result", subtype: "success", is_error: false, result: "Done." }),
    );
    expect(event).toMatchObject({ kind: "result", isError: false, text: "Done.", usage: undefined });
    expect(event).toMatchObject({ apiErrorStatus: undefined, costUsd: undefined });
  });

  it("tolerates lines it does not know", () => {
    expect(parseStreamLine(line({ type: "stream_event", event: { type: "message_start" } }))).toEqual([
      { kind: "unknown", type: "stream_event" },
    ]);
    expect(
      parseStreamLine(line({ type: "system", subtype: "compact_boundary", compact_metadata: {} })),
    ).toEqual([{ kind: "unknown", type: "system" }]);
    expect(parseStreamLine("Warning: something printed to stdout")).toEqual([
      { kind: "unknown", type: "non-json" },
    ]);
    expect(parseStreamLine("[1,2]")).toEqual([{ kind: "unknown", type: "non-object" }]);
    expect(parseStreamLine(line({ no: "type" }))).toEqual([{ kind: "unknown", type: "untyped" }]);
    expect(parseStreamLine(line({ type: "assistant", message: "not an object" }))).toEqual([
      { kind: "unknown", type: "assistant" },
    ]);
    expect(parseStreamLine("   ")).toEqual([]);
  });

  it("skips malformed content blocks and defaults a non-object tool input to {}", () => {
    const odd = {
      type: "assistant",
      message: {
        content: [null, "text", { type: "tool_use", id: "t", name: "Bash", input: "ls" }, { type: "image" }],
      },
    };
    expect(parseStreamLine(line(odd))).toEqual([
      { kind: "tool_use", id: "t", name: "Bash", input: {}, messageId: undefined },
    ]);
  });
});

describe("totalTokens", () => {
  it("adds every kind of token and treats no usage as zero", () => {
    const [event] = parseStreamLine(line(result));
    expect(event?.kind === "result" ? totalTokens(event.usage) : -1).toBe(460);
    expect(totalTokens(undefined)).toBe(0);
  });
});

describe("skillLoadedBy", () => {
  const toolUse = (name: string, input: Record<string, unknown>): AgentEvent => ({
    kind: "tool_use",
    id: "t",
    name,
    input,
  });

  it("reads the Skill tool's skill, and the older command form", () => {
    expect(skillLoadedBy(toolUse("Skill", { skill: "pdf-tools" }))).toBe("pdf-tools");
    expect(skillLoadedBy(toolUse("Skill", { command: "/pdf-tools" }))).toBe("pdf-tools");
    expect(skillLoadedBy(toolUse("Skill", { command: "pdf-tools" }))).toBe("pdf-tools");
    expect(skillLoadedBy(toolUse("Skill", { skill: 3 }))).toBeUndefined();
    // Only a leading slash goes: one inside a name stays.
    expect(skillLoadedBy(toolUse("Skill", { command: "/docs/pdf-tools" }))).toBe("docs/pdf-tools");
    expect(skillLoadedBy(toolUse("Skill", { skill: "docs/pdf-tools" }))).toBe("docs/pdf-tools");
  });

  it("counts a Read of a skill's SKILL.md, with either slash", () => {
    expect(skillLoadedBy(toolUse("Read", { file_path: "/tmp/ws/.claude/skills/pdf-tools/SKILL.md" }))).toBe(
      "pdf-tools",
    );
    expect(
      skillLoadedBy(toolUse("Read", { file_path: "C:\\ws\\.claude\\skills\\pdf-tools\\SKILL.md" })),
    ).toBe("pdf-tools");
    expect(
      skillLoadedBy(toolUse("Read", { file_path: "/tmp/ws/.claude/skills/pdf-tools/reference.md" })),
    ).toBe(undefined);
    expect(skillLoadedBy(toolUse("Read", { file_path: "/tmp/ws/README.md" }))).toBeUndefined();
    expect(
      skillLoadedBy(toolUse("Read", { file_path: "/tmp/ws/.claude/skills/pdf-tools/SKILL.md.orig" })),
    ).toBeUndefined();
  });

  it("ignores other tools and other events", () => {
    expect(skillLoadedBy(toolUse("Bash", { command: "cat .claude/skills/x/SKILL.md" }))).toBeUndefined();
    expect(skillLoadedBy(toolUse("Write", { file_path: "/w/.claude/skills/x/SKILL.md" }))).toBeUndefined();
    expect(skillLoadedBy({ kind: "text", text: "Skill" })).toBeUndefined();
    expect(
      skillLoadedBy({ kind: "tool_result", name: "Skill", input: { skill: "pdf-tools" } }),
    ).toBeUndefined();
    expect(
      skillLoadedBy({
        kind: "tool_result",
        name: "Read",
        input: { file_path: "/w/.claude/skills/x/SKILL.md" },
      }),
    ).toBeUndefined();
  });
});
