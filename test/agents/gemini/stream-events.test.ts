import { describe, expect, it } from "vitest";
import { apiErrorStatus, parseGeminiTranscript } from "../../../src/agents/gemini/parse-stream.js";
import { costOf } from "../../../src/agents/pricing.js";

const lines = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join("\n");
const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens: 0,
});

describe("Gemini CLI's stream, event by event", () => {
  it("reads a whole run into exact events", () => {
    const text = lines([
      { type: "init", model: "gemini-2.5-flash", session_id: "s1" },
      { type: "message", role: "user", content: "Hi" },
      { type: "message", role: "assistant", content: "Let me " },
      { type: "message", role: "assistant", content: "look." },
      { type: "tool_use", tool_name: "activate_skill", tool_id: "t1", parameters: { name: "haiku" } },
      { type: "tool_use", tool_name: "read_file", tool_id: "t2", parameters: "x" },
      { type: "tool_result", tool_id: "t1", status: "success", output: "skill text" },
      { type: "tool_result", tool_id: "t2", status: "error", error: { message: "not found" } },
      { type: "tool_use", tool_name: "mystery", tool_id: "t3" },
      { type: "tool_result", tool_id: "t3", status: "error", output: "partial", error: { message: "x" } },
      { type: "message", role: "assistant", content: "Done." },
      { type: "event" },
      {},
      {
        type: "result",
        status: "success",
        stats: {
          duration_ms: 1200,
          input_tokens: 150,
          cached: 50,
          output_tokens: 12,
          models: {
            "gemini-2.5-flash": { input: 80, cached: 20, output_tokens: 10 },
            "gemini-2.0-flash": { input_tokens: 30, output_tokens: 2 },
            junk: 3,
          },
        },
      },
    ]);
    const cost =
      (costOf("gemini-2.5-flash", usage(80, 10, 20)) ?? Number.NaN) +
      (costOf("gemini-2.0-flash", usage(30, 2)) ?? Number.NaN);
    expect(parseGeminiTranscript(`${text}\n\nnot json`)).toEqual([
      { kind: "init", model: "gemini-2.5-flash", tools: [], skills: [], sessionId: "s1" },
      { kind: "unknown", type: "message:user" },
      { kind: "text", text: "Let me ", messageId: "turn-1" },
      { kind: "text", text: "look.", messageId: "turn-1" },
      {
        kind: "tool_use",
        id: "t1",
        name: "activate_skill",
        input: { name: "haiku" },
        messageId: "turn-1",
        tool: "skill",
      },
      { kind: "skill_load", skill: "haiku", via: "tool", toolUseId: "t1" },
      { kind: "tool_use", id: "t2", name: "read_file", input: {}, messageId: "turn-1", tool: "read" },
      { kind: "tool_result", toolUseId: "t1", isError: false, content: "skill text" },
      { kind: "tool_result", toolUseId: "t2", isError: true, content: "not found" },
      { kind: "tool_use", id: "t3", name: "mystery", input: {}, messageId: "turn-2", tool: "other" },
      { kind: "tool_result", toolUseId: "t3", isError: true, content: "partial" },
      { kind: "text", text: "Done.", messageId: "turn-3" },
      { kind: "unknown", type: "event" },
      { kind: "unknown", type: "untyped" },
      {
        kind: "result",
        isError: false,
        subtype: "success",
        text: "Done.",
        numTurns: 3,
        durationMs: 1200,
        costUsd: cost,
        usage: usage(100, 12, 50),
      },
      { kind: "unknown", type: "non-json" },
    ]);
  });

  it("gives every tool its kind", () => {
    const kinds = Object.entries({
      run_shell_command: "shell",
      read_file: "read",
      read_many_files: "read",
      write_file: "write",
      replace: "edit",
      list_directory: "search",
      glob: "search",
      grep_search: "search",
      search_file_content: "search",
      google_web_search: "search",
      activate_skill: "skill",
      web_fetch: "other",
    });
    const events = parseGeminiTranscript(
      lines(
        kinds.map(([name], i) => ({ type: "tool_use", tool_name: name, tool_id: `t${i}`, parameters: {} })),
      ),
    );
    expect(events.map((e) => (e.kind === "tool_use" ? [e.name, e.tool] : []))).toEqual(kinds);
  });

  it("an error result: the error's text and status, or the answer's text; no cost for an unknown model", () => {
    expect(
      parseGeminiTranscript(
        lines([
          { type: "init", model: "m" },
          {
            type: "result",
            status: "error",
            error: { message: '[API Error: {"error":{"code":429}}]' },
            stats: { input_tokens: 5, output_tokens: 1, models: { "mystery-model": { input: 5 } } },
          },
        ]),
      ),
    ).toEqual([
      { kind: "init", model: "m", tools: [], skills: [] },
      {
        kind: "result",
        isError: true,
        subtype: "error",
        text: '[API Error: {"error":{"code":429}}]',
        numTurns: 0,
        usage: usage(5, 1),
        apiErrorStatus: 429,
      },
    ]);
    expect(
      parseGeminiTranscript(
        lines([
          { type: "message", role: "assistant", content: "Half" },
          { type: "result", error: "x" },
        ]),
      ),
    ).toEqual([
      { kind: "text", text: "Half", messageId: "turn-1" },
      { kind: "result", isError: true, subtype: "unknown", text: "Half", numTurns: 1, usage: usage(0, 0) },
    ]);
  });

  it("reads a status quoted as JSON, then a bare one", () => {
    expect(apiErrorStatus('{"code" : 503}')).toBe(503);
    expect(apiErrorStatus("got 401")).toBe(401);
    expect(apiErrorStatus("got 403")).toBe(403);
    expect(apiErrorStatus("HTTP 502 bad gateway")).toBe(502);
    expect(apiErrorStatus("HTTP 404")).toBeUndefined();
    expect(apiErrorStatus("id 14290")).toBeUndefined();
  });
});
