import { describe, expect, it } from "vitest";
import { openCodeUsage, parseOpenCodeTranscript } from "../../../src/agents/opencode/parse-stream.js";

const lines = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join("\n");
const part = (type: string, extra: object = {}) => ({
  type,
  sessionID: "ses_1",
  part: { messageID: "msg_1", ...extra },
});
const tokens = (input: number, output: number, reasoning: number, read: number, write: number) => ({
  input,
  output,
  reasoning,
  cache: { read, write },
});

describe("OpenCode's stream, event by event", () => {
  it("reads a whole run into exact events, tokens added over its steps", () => {
    const text = lines([
      part("step_start"),
      part("tool_use", {
        tool: "skill",
        callID: "call_1",
        state: { status: "completed", input: { name: "haiku" }, output: "loaded" },
      }),
      part("tool_use", {
        tool: "bash",
        id: "prt_2",
        state: { status: "error", input: "x", error: "boom", output: "o" },
      }),
      part("tool_use", { tool: "mystery", state: "x" }),
      part("step_finish", { reason: "tool-calls", tokens: tokens(100, 5, 2, 40, 1) }),
      part("step_start"),
      part("text", { text: "Done." }),
      part("reasoning", {}),
      {},
      part("step_finish", { reason: "", tokens: tokens(200, 10, 0, 60, 0) }),
    ]);
    expect(parseOpenCodeTranscript(`${text}\n\nnot json`)).toEqual([
      { kind: "init", model: "", tools: [], skills: [], sessionId: "ses_1" },
      {
        kind: "tool_use",
        id: "call_1",
        name: "skill",
        input: { name: "haiku" },
        messageId: "msg_1",
        tool: "skill",
      },
      { kind: "skill_load", skill: "haiku", via: "tool", toolUseId: "call_1" },
      { kind: "tool_result", toolUseId: "call_1", isError: false, content: "loaded" },
      { kind: "tool_use", id: "prt_2", name: "bash", input: {}, messageId: "msg_1", tool: "shell" },
      { kind: "tool_result", toolUseId: "prt_2", isError: true, content: "boom" },
      { kind: "tool_use", id: "", name: "mystery", input: {}, messageId: "msg_1", tool: "other" },
      { kind: "tool_result", toolUseId: "", isError: false, content: "" },
      {
        kind: "usage",
        phase: "start",
        usage: { inputTokens: 100, outputTokens: 7, cacheReadTokens: 40, cacheWriteTokens: 1 },
        messageId: "msg_1",
      },
      { kind: "text", text: "Done.", messageId: "msg_1" },
      { kind: "unknown", type: "reasoning" },
      { kind: "unknown", type: "untyped" },
      {
        kind: "usage",
        phase: "start",
        usage: { inputTokens: 200, outputTokens: 10, cacheReadTokens: 60, cacheWriteTokens: 0 },
        messageId: "msg_1",
      },
      {
        kind: "result",
        isError: false,
        subtype: "stop",
        text: "Done.",
        numTurns: 2,
        usage: { inputTokens: 300, outputTokens: 17, cacheReadTokens: 100, cacheWriteTokens: 1 },
      },
      { kind: "unknown", type: "non-json" },
    ]);
  });

  it("gives every tool its kind", () => {
    const kinds = Object.entries({
      bash: "shell",
      read: "read",
      write: "write",
      edit: "edit",
      patch: "edit",
      multiedit: "edit",
      glob: "search",
      grep: "search",
      list: "search",
      webfetch: "search",
      websearch: "search",
      codesearch: "search",
      skill: "skill",
      todowrite: "other",
    });
    const events = parseOpenCodeTranscript(
      lines(kinds.map(([tool], i) => part("tool_use", { tool, callID: `c${i}` }))),
    );
    expect(events.flatMap((e) => (e.kind === "tool_use" ? [[e.name, e.tool]] : []))).toEqual(kinds);
  });

  it("an error line: the provider's message and status, else the error's message or name", () => {
    expect(
      parseOpenCodeTranscript(
        lines([
          { type: "step_start" },
          {
            type: "error",
            error: { name: "APIError", message: "outer", data: { message: "Overloaded", statusCode: 529 } },
          },
        ]),
      ),
    ).toEqual([
      { kind: "init", model: "", tools: [], skills: [] },
      {
        kind: "result",
        isError: true,
        subtype: "APIError",
        text: "Overloaded",
        numTurns: 1,
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        apiErrorStatus: 529,
      },
    ]);
    const end = (error: unknown) => parseOpenCodeTranscript(lines([{ type: "error", error }])).at(-1);
    expect(end({ name: "UnknownError", message: "went wrong", data: { statusCode: 0 } })).toMatchObject({
      subtype: "UnknownError",
      text: "went wrong",
    });
    expect(end({ name: "UnknownError", data: "x" })).toMatchObject({ text: "UnknownError" });
    expect(end({ name: "UnknownError" })).not.toHaveProperty("apiErrorStatus");
    expect(end("x")).toMatchObject({ subtype: "error", text: "" });
  });

  it("a run that ends without answering: an empty text", () => {
    expect(
      parseOpenCodeTranscript(lines([part("step_start"), part("step_finish", { reason: "stop" })])).at(-1),
    ).toMatchObject({ kind: "result", isError: false, subtype: "stop", text: "", numTurns: 1 });
  });

  it("counts reasoning as output and reads missing tokens as none", () => {
    expect(openCodeUsage(tokens(1, 2, 3, 4, 5))).toEqual({
      inputTokens: 1,
      outputTokens: 5,
      cacheReadTokens: 4,
      cacheWriteTokens: 5,
    });
    expect(openCodeUsage({ input: Number.NaN, cache: "x" })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(openCodeUsage(undefined)).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });
});
