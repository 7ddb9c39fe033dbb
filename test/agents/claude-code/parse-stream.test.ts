import { describe, expect, it } from "vitest";
import { parseStreamLine } from "../../../src/agents/claude-code/parse-stream.js";

const parse = (value: unknown) => parseStreamLine(JSON.stringify(value));

describe("Claude Code's stream lines, exactly", () => {
  it("an init line with its tools, skills, session and version (non-strings left out)", () => {
    expect(
      parse({
        type: "system",
        subtype: "init",
        model: "claude-sonnet-4-5",
        tools: ["Read", 3, "Skill"],
        skills: ["haiku", null],
        session_id: "s1",
        claude_code_version: "2.1.0",
      }),
    ).toEqual([
      {
        kind: "init",
        model: "claude-sonnet-4-5",
        tools: ["Read", "Skill"],
        skills: ["haiku"],
        sessionId: "s1",
        version: "2.1.0",
      },
    ]);
    expect(parse({ type: "system", subtype: "init", tools: "x", session_id: 1 })).toEqual([
      { kind: "init", model: "", tools: [], skills: [], sessionId: undefined, version: undefined },
    ]);
    expect(parse({ type: "system", subtype: "hook" })).toEqual([{ kind: "unknown", type: "system" }]);
  });

  it("an assistant message's text and tool calls; a user message's tool results", () => {
    expect(
      parse({
        type: "assistant",
        message: {
          id: "msg_1",
          content: [
            { type: "text", text: "Reading." },
            { type: "tool_use", id: "tu_1", name: "Read", input: { file_path: "/w/a" } },
            { type: "tool_use", id: "tu_2", name: "Bash", input: "x" },
            { type: "thinking", thinking: "hm" },
            { type: "tool_result", tool_use_id: "odd", content: "x" },
            "junk",
          ],
        },
      }),
    ).toEqual([
      { kind: "text", text: "Reading.", messageId: "msg_1" },
      { kind: "tool_use", id: "tu_1", name: "Read", input: { file_path: "/w/a" }, messageId: "msg_1" },
      { kind: "tool_use", id: "tu_2", name: "Bash", input: {}, messageId: "msg_1" },
      { kind: "tool_result", toolUseId: "odd", isError: false, content: "x" },
    ]);
    expect(
      parse({
        type: "user",
        message: {
          content: [
            {
              type: "tool_result",
              tool_use_id: "tu_1",
              content: [{ type: "text", text: "a" }, "b", { text: "c" }],
            },
            { type: "tool_result", tool_use_id: "tu_2", is_error: true, content: "failed" },
            { type: "tool_result", tool_use_id: "tu_3", is_error: "true", content: 5 },
            { type: "text", text: "user text" },
            { type: "tool_use", id: "x", name: "y" },
          ],
        },
      }),
    ).toEqual([
      { kind: "tool_result", toolUseId: "tu_1", isError: false, content: "ac" },
      { kind: "tool_result", toolUseId: "tu_2", isError: true, content: "failed" },
      { kind: "tool_result", toolUseId: "tu_3", isError: false, content: "" },
    ]);
  });

  it("a message whose content is a string is text for the assistant only", () => {
    expect(parse({ type: "assistant", message: { id: 5, content: "Hi" } })).toEqual([
      { kind: "text", text: "Hi", messageId: undefined },
    ]);
    expect(parse({ type: "user", message: { content: "Hi" } })).toEqual([]);
    expect(parse({ type: "assistant", message: { content: 3 } })).toEqual([]);
    expect(parse({ type: "assistant", message: "x" })).toEqual([{ kind: "unknown", type: "assistant" }]);
  });

  it("keeps the usage of a partial message's start and deltas", () => {
    const tokens = {
      input_tokens: 10,
      output_tokens: 1,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 2,
    };
    const usage = { inputTokens: 10, outputTokens: 1, cacheReadTokens: 5, cacheWriteTokens: 2 };
    expect(
      parse({ type: "stream_event", event: { type: "message_start", message: { id: "m1", usage: tokens } } }),
    ).toEqual([{ kind: "usage", phase: "start", usage, messageId: "m1" }]);
    expect(parse({ type: "stream_event", event: { type: "message_start", message: { usage: {} } } })).toEqual(
      [
        {
          kind: "usage",
          phase: "start",
          usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        },
      ],
    );
    expect(parse({ type: "stream_event", event: { type: "message_start", message: { id: "m" } } })).toEqual([
      { kind: "unknown", type: "stream_event" },
    ]);
    expect(parse({ type: "stream_event", event: { type: "message_start" } })).toEqual([
      { kind: "unknown", type: "stream_event" },
    ]);
    expect(parse({ type: "stream_event", event: { type: "message_delta", usage: tokens } })).toEqual([
      { kind: "usage", phase: "delta", usage },
    ]);
    expect(parse({ type: "stream_event", event: { type: "message_delta" } })).toEqual([
      { kind: "unknown", type: "stream_event" },
    ]);
    expect(parse({ type: "stream_event", event: { type: "content_block_delta" } })).toEqual([
      { kind: "unknown", type: "stream_event" },
    ]);
    expect(parse({ type: "stream_event", event: "x" })).toEqual([{ kind: "unknown", type: "stream_event" }]);
  });

  it("a result line with every field, and one with errors instead of a result", () => {
    expect(
      parse({
        type: "result",
        subtype: "success",
        is_error: false,
        result: "Done.",
        num_turns: 3,
        duration_ms: 1500,
        total_cost_usd: 0.02,
        usage: { input_tokens: 1, output_tokens: 2 },
        api_error_status: 429,
      }),
    ).toEqual([
      {
        kind: "result",
        isError: false,
        subtype: "success",
        text: "Done.",
        numTurns: 3,
        durationMs: 1500,
        costUsd: 0.02,
        usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
        apiErrorStatus: 429,
      },
    ]);
    expect(
      parse({ type: "result", subtype: "error_during_execution", is_error: true, errors: ["a", 1, "b"] }),
    ).toEqual([
      {
        kind: "result",
        isError: true,
        subtype: "error_during_execution",
        text: "a; b",
        numTurns: undefined,
        durationMs: undefined,
        costUsd: undefined,
        usage: undefined,
        apiErrorStatus: undefined,
      },
    ]);
    expect(parse({ type: "result", is_error: "yes", errors: "x" })[0]).toMatchObject({
      isError: false,
      text: "",
    });
  });

  it("keeps the usage of a stream event only where Claude Code puts it, by the event's type", () => {
    const usage = { input_tokens: 3, output_tokens: 4 };
    const unknown = [{ kind: "unknown", type: "stream_event" }];
    expect(
      parse({ type: "stream_event", event: { type: "message_delta", message: { id: "m", usage } } }),
    ).toEqual(unknown);
    expect(
      parse({ type: "stream_event", event: { type: "content_block_delta", message: { usage } } }),
    ).toEqual(unknown);
    expect(parse({ type: "stream_event", event: { type: "message_start", usage } })).toEqual(unknown);
    expect(parse({ type: "stream_event", event: { type: "message_stop", usage } })).toEqual(unknown);
  });

  it("takes an init only from a system line, and content only from assistant and user lines", () => {
    expect(parse({ type: "result_summary", subtype: "init", model: "m" })).toEqual([
      { kind: "unknown", type: "result_summary" },
    ]);
    expect(
      parse({ type: "summary", message: { role: "assistant", content: [{ type: "text", text: "hi" }] } }),
    ).toEqual([{ kind: "unknown", type: "summary" }]);
  });

  it("tolerates what it does not know", () => {
    expect(parse({ type: "rate_limit_event" })).toEqual([{ kind: "unknown", type: "rate_limit_event" }]);
    expect(parse({})).toEqual([{ kind: "unknown", type: "untyped" }]);
    expect(parseStreamLine("   ")).toEqual([]);
    expect(parseStreamLine("{oops")).toEqual([{ kind: "unknown", type: "non-json" }]);
    expect(parseStreamLine("[1]")).toEqual([{ kind: "unknown", type: "non-object" }]);
  });
});
