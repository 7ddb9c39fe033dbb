import { describe, expect, it } from "vitest";
import { acpUsage, createAcpMapper, errorStatus } from "../../../src/agents/acp/updates.js";
import { costOf } from "../../../src/agents/pricing.js";

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

describe("acpUsage", () => {
  it("reads ACP's usage, the cached tokens counted apart from the input", () => {
    expect(
      acpUsage({ inputTokens: 100, outputTokens: 7, cachedReadTokens: 30, cachedWriteTokens: 20 }),
    ).toEqual(usage(50, 7, 30, 20));
    expect(acpUsage({ inputTokens: 10, cachedReadTokens: 30 })).toEqual(usage(0, 0, 30, 0));
    expect(acpUsage({ outputTokens: 5 })).toEqual(usage(0, 5));
    expect(acpUsage({ inputTokens: 5, outputTokens: Number.NaN, cachedReadTokens: "3" })).toEqual(
      usage(5, 0),
    );
  });

  it("is undefined without input or output tokens", () => {
    expect(acpUsage({ totalTokens: 10, cachedReadTokens: 3 })).toBeUndefined();
    expect(acpUsage(undefined)).toBeUndefined();
    expect(acpUsage([1])).toBeUndefined();
    expect(acpUsage("x")).toBeUndefined();
  });
});

describe("errorStatus", () => {
  it("a JSON-RPC code that is an HTTP status, at the bounds", () => {
    expect(errorStatus(400, "x")).toBe(400);
    expect(errorStatus(599, "x")).toBe(599);
    expect(errorStatus(399, "x")).toBeUndefined();
    expect(errorStatus(600, "x")).toBeUndefined();
    expect(errorStatus(600, "status 503")).toBe(503);
  });

  it("a status quoted as a JSON code, then a bare one the message names", () => {
    expect(errorStatus(-32603, '{"error":{"code" : 404}} 429')).toBe(404);
    expect(errorStatus(-32603, '{"error":{"code":404}}')).toBe(404);
    expect(errorStatus(undefined, "got 401 back")).toBe(401);
    expect(errorStatus(undefined, "got 403 back")).toBe(403);
    expect(errorStatus(undefined, "HTTP 500")).toBe(500);
    expect(errorStatus(undefined, "HTTP 404")).toBeUndefined();
    expect(errorStatus(undefined, "id 4291 and 1500")).toBeUndefined();
  });
});

describe("createAcpMapper", () => {
  it("records a tool call once it says what it does, its result once, and numbers the answers", () => {
    const mapper = createAcpMapper();
    expect(
      mapper.update({ sessionUpdate: "tool_call", toolCallId: "a", kind: "execute", status: "pending" }),
    ).toEqual([]);
    expect(
      mapper.update({ sessionUpdate: "tool_call_update", toolCallId: "a", rawInput: { command: "ls" } }),
    ).toEqual([
      {
        kind: "tool_use",
        id: "a",
        name: "execute",
        input: { command: "ls" },
        messageId: "turn-1",
        tool: "shell",
      },
    ]);
    expect(
      mapper.update({ sessionUpdate: "tool_call_update", toolCallId: "a", status: "in_progress" }),
    ).toEqual([]);
    // A second call in the same answer keeps its turn.
    expect(
      mapper.update({ sessionUpdate: "tool_call", toolCallId: "b", kind: "think", status: "in_progress" }),
    ).toEqual([{ kind: "tool_use", id: "b", name: "think", input: {}, messageId: "turn-1", tool: "other" }]);
    expect(
      mapper.update({
        sessionUpdate: "tool_call_update",
        toolCallId: "a",
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: "no such file" } }],
      }),
    ).toEqual([{ kind: "tool_result", toolUseId: "a", isError: true, content: "no such file" }]);
    expect(
      mapper.update({ sessionUpdate: "tool_call_update", toolCallId: "a", status: "completed" }),
    ).toEqual([]);
    // After a tool finished, the next message begins answer 2.
    expect(
      mapper.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done" } }),
    ).toEqual([{ kind: "text", text: "Done", messageId: "turn-2" }]);
    expect(
      mapper.update({
        sessionUpdate: "agent_message_chunk",
        messageId: "msg-9",
        content: { type: "text", text: "." },
      }),
    ).toEqual([{ kind: "text", text: ".", messageId: "msg-9" }]);
    expect(
      mapper.update({ sessionUpdate: "tool_call", toolCallId: "c", status: "completed", title: "x" }),
    ).toEqual([
      { kind: "tool_use", id: "c", name: "tool", input: { title: "x" }, messageId: "turn-2", tool: "other" },
      { kind: "tool_result", toolUseId: "c", isError: false, content: "" },
    ]);
    expect(mapper.finish({ response: {} })).toEqual([
      { kind: "result", isError: false, subtype: "end_turn", text: "Done.", numTurns: 2 },
    ]);
  });

  it("a call with paths or from a permission request is recorded at once, a pending call with nothing is not", () => {
    const mapper = createAcpMapper();
    expect(
      mapper.update({
        sessionUpdate: "tool_call",
        toolCallId: "p",
        kind: "read",
        locations: [{ path: "/w/a" }],
      }),
    ).toEqual([
      {
        kind: "tool_use",
        id: "p",
        name: "read",
        input: { file_path: "/w/a", paths: ["/w/a"] },
        messageId: "turn-1",
        tool: "read",
      },
    ]);
    expect(
      mapper.permission({ toolCallId: "q", kind: "edit", name: "write_file", status: "pending" }),
    ).toEqual([
      { kind: "tool_use", id: "q", name: "write_file", input: {}, messageId: "turn-1", tool: "write" },
    ]);
    expect(mapper.permission({ toolCallId: "q", status: "pending" })).toEqual([]);
    expect(mapper.update({ sessionUpdate: "tool_call", toolCallId: "r", kind: "read" })).toEqual([]);
  });

  it("finds a skill load once, even when it is named after the call was recorded", () => {
    const mapper = createAcpMapper({ skills: ["haiku"] });
    expect(mapper.permission({ toolCallId: "s", name: "skill", title: "Skill" })).toEqual([
      {
        kind: "tool_use",
        id: "s",
        name: "skill",
        input: { title: "Skill" },
        messageId: "turn-1",
        tool: "skill",
      },
    ]);
    expect(
      mapper.update({ sessionUpdate: "tool_call_update", toolCallId: "s", title: "Skill haiku" }),
    ).toEqual([{ kind: "skill_load", skill: "haiku", via: "tool", toolUseId: "s" }]);
    expect(
      mapper.update({ sessionUpdate: "tool_call_update", toolCallId: "s", status: "completed" }),
    ).toEqual([{ kind: "tool_result", toolUseId: "s", isError: false, content: "" }]);
  });

  it("a message chunk that is not text carries no text; its usage still counts", () => {
    const mapper = createAcpMapper({ model: "claude-sonnet-4-5" });
    expect(
      mapper.update({
        sessionUpdate: "agent_message_chunk",
        content: { type: "image", text: "ignored" },
        _meta: { usage: { inputTokens: 100, outputTokens: 10 } },
      }),
    ).toEqual([{ kind: "usage", phase: "start", usage: usage(100, 10), messageId: "turn-1" }]);
    expect(mapper.update({ sessionUpdate: "agent_message_chunk" })).toEqual([]);
    expect(
      mapper.update({ sessionUpdate: "agent_message_chunk", _meta: { usage: { totalTokens: 3 } } }),
    ).toEqual([]);
    expect(mapper.update({ other: 1 })).toEqual([{ kind: "unknown", type: "untyped" }]);
    expect(mapper.update({ sessionUpdate: "usage_update", cost: { amount: 1, currency: "EUR" } })).toEqual([
      { kind: "unknown", type: "usage_update" },
    ]);
    expect(mapper.update({ sessionUpdate: "usage_update", cost: { amount: "1", currency: "USD" } })).toEqual([
      { kind: "unknown", type: "usage_update" },
    ]);
    // The streamed usage, priced as the run's model (no cost in any currency skillgym reads was reported).
    expect(mapper.finish({ response: { stopReason: "max_turn_requests" } })).toEqual([
      {
        kind: "result",
        isError: true,
        subtype: "max_turn_requests",
        text: "",
        numTurns: 1,
        usage: usage(100, 10),
        costUsd: costOf("claude-sonnet-4-5", usage(100, 10)),
      },
    ]);
  });

  it("takes a cost in dollars whatever the case of its currency", () => {
    const mapper = createAcpMapper();
    mapper.update({ sessionUpdate: "usage_update", cost: { amount: 0.5, currency: "usd" } });
    // A later report without a number keeps the cost known.
    mapper.update({ sessionUpdate: "usage_update", cost: { amount: "n/a", currency: "USD" } });
    expect(mapper.finish({ response: { usage: { inputTokens: 1, outputTokens: 1 } } })).toEqual([
      {
        kind: "result",
        isError: false,
        subtype: "end_turn",
        text: "",
        numTurns: 0,
        usage: usage(1, 1),
        costUsd: 0.5,
      },
    ]);
  });

  it("prices Gemini CLI's usage per model, and not at all when one model's price is unknown", () => {
    const quota = (models: string[]) => ({
      stopReason: "end_turn",
      _meta: {
        quota: {
          token_count: { input_tokens: 300, output_tokens: 30 },
          model_usage: [
            ...models.map((model) => ({ model, token_count: { input_tokens: 100, output_tokens: 10 } })),
            { model: 7, token_count: {} },
            "junk",
          ],
        },
      },
    });
    const each = costOf("gemini-2.5-flash", usage(100, 10)) ?? Number.NaN;
    expect(createAcpMapper().finish({ response: quota(["gemini-2.5-flash", "gemini-2.5-flash"]) })).toEqual([
      {
        kind: "result",
        isError: false,
        subtype: "end_turn",
        text: "",
        numTurns: 0,
        usage: usage(300, 30),
        costUsd: each * 2,
      },
    ]);
    expect(
      createAcpMapper({ model: "gemini-2.5-flash" }).finish({
        response: quota(["gemini-2.5-flash", "mystery-model"]),
      }),
    ).toEqual([
      { kind: "result", isError: false, subtype: "end_turn", text: "", numTurns: 0, usage: usage(300, 30) },
    ]);
    // No per-model list: the turn's tokens at the run's model.
    expect(
      createAcpMapper({ model: "gemini-2.5-flash" }).finish({
        response: { _meta: { quota: { token_count: { input_tokens: 100 } } } },
      }),
    ).toEqual([
      {
        kind: "result",
        isError: false,
        subtype: "end_turn",
        text: "",
        numTurns: 0,
        usage: usage(100, 0),
        costUsd: costOf("gemini-2.5-flash", usage(100, 0)),
      },
    ]);
    expect(createAcpMapper().finish({ response: { _meta: { quota: { token_count: "x" } } } })).toEqual([
      { kind: "result", isError: false, subtype: "end_turn", text: "", numTurns: 0 },
    ]);
  });

  it("an error end keeps the streamed usage and the turns, and a status only when one is named", () => {
    const mapper = createAcpMapper();
    mapper.update({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "Hi" },
      _meta: { usage: { inputTokens: 5, outputTokens: 1 } },
    });
    expect(mapper.finish({ error: { code: 429, message: "Too many" } })).toEqual([
      {
        kind: "result",
        isError: true,
        subtype: "error",
        text: "Too many",
        numTurns: 1,
        usage: usage(5, 1),
        apiErrorStatus: 429,
      },
    ]);
    expect(createAcpMapper().finish({ error: { message: "Internal error" } })).toStrictEqual([
      { kind: "result", isError: true, subtype: "error", text: "Internal error", numTurns: 0 },
    ]);
  });
});
