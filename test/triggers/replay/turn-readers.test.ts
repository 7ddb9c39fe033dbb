import { describe, expect, it } from "vitest";
import { readAnthropicTurn } from "../../../src/triggers/replay/anthropic-turn.js";
import { readGeminiTurn } from "../../../src/triggers/replay/gemini-turn.js";
import { readOpenAiTurn } from "../../../src/triggers/replay/openai-turn.js";

const SSE = "text/event-stream";
const events = (...list: object[]) => list.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

describe("an Anthropic answer's first turn", () => {
  it("keeps only text blocks with text, joined by a line break, and only named tool_use blocks as calls", () => {
    const turn = readAnthropicTurn(
      "application/json",
      JSON.stringify({
        content: [
          { type: "text", text: "one" },
          { type: "text", text: "" },
          { type: "tool_use", name: "Skill", text: "not an answer", input: { skill: "haiku" } },
          { type: "tool_use", input: { skill: "nameless" } },
          { type: "text", text: "two" },
          { type: "thinking", text: "hmm", name: "not a tool" },
        ],
      }),
    );
    expect(turn).toEqual({ text: "one\ntwo", calls: [{ name: "Skill", input: { skill: "haiku" } }] });
  });

  it("streamed: a block started without text, deltas without text or JSON, a usage only message_delta's", () => {
    const turn = readAnthropicTurn(
      SSE,
      events(
        { type: "message_start", message: { model: "claude-x", usage: { input_tokens: 7 } } },
        { type: "content_block_start", index: 0, content_block: { type: "text" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } },
        { type: "content_block_start", index: 1, content_block: { type: "tool_use", name: "Bash" } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta" } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"a":' } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "1}" } },
        { type: "ping", usage: { cache_read_input_tokens: 999 } },
        { type: "message_delta" },
        { type: "message_delta", usage: { output_tokens: 3 } },
      ),
    );
    expect(turn).toEqual({
      model: "claude-x",
      usage: { inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 },
      text: "hi",
      calls: [{ name: "Bash", input: { a: 1 } }],
    });
  });

  it("streamed: a delta adds to the text its block started with, only at its own index and only as a delta", () => {
    const turn = readAnthropicTurn(
      SSE,
      events(
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "Hel" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } },
        // A delta that also carries a block is still a delta; an event of another type with a delta adds nothing.
        {
          type: "content_block_delta",
          index: 0,
          content_block: { type: "text", text: "replaced" },
          delta: { type: "text_delta", text: "!" },
        },
        { type: "message_delta", index: 0, delta: { type: "text_delta", text: " (stop)" } },
        // A delta of another kind adds nothing to the text, even when it carries some.
        { type: "content_block_delta", index: 0, delta: { type: "signature_delta", text: " (signed)" } },
        // A delta for a block that never started is dropped.
        { type: "content_block_delta", index: 5, delta: { type: "text_delta", text: "lost" } },
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "tool_use", name: "Skill", input: { skill: "a" } },
        },
        // Only a JSON delta changes a call's input.
        { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "x" } },
      ),
    );
    expect(turn).toEqual({ text: "Hello!", calls: [{ name: "Skill", input: { skill: "a" } }] });
  });

  it("streamed: blocks started only at later indexes are read, the indexes before them skipped", () => {
    const turn = readAnthropicTurn(
      SSE,
      events(
        { type: "content_block_start", index: 2, content_block: { type: "text", text: "late" } },
        { type: "content_block_start", index: 4, content_block: { type: "tool_use", name: "Skill" } },
        { type: "content_block_delta", index: 4, delta: { type: "input_json_delta", partial_json: "{}" } },
      ),
    );
    expect(turn).toEqual({ text: "late", calls: [{ name: "Skill", input: {} }] });
  });

  it("streamed: an error event with no message is named as an error of the stream", () => {
    expect(() => readAnthropicTurn(SSE, events({ type: "error" }))).toThrow(/^the stream ended in an error$/);
    expect(() => readAnthropicTurn(SSE, events({ type: "error", error: { message: "overloaded" } }))).toThrow(
      /^overloaded$/,
    );
  });
});

describe("an OpenAI Responses answer's first turn", () => {
  const turnOf = (output: object[]) => readOpenAiTurn("application/json", JSON.stringify({ output }));

  it("keeps arguments that are JSON but not an object, or not JSON, under `arguments`", () => {
    expect(
      turnOf([
        { type: "function_call", name: "a", arguments: "[1,2]" },
        { type: "function_call", name: "b", arguments: "5" },
        { type: "function_call", name: "c", arguments: "{not json" },
        { type: "function_call", name: "d", arguments: '{"x":1}' },
        { type: "function_call", name: "e", arguments: { y: 2 } },
      ]).calls,
    ).toEqual([
      { name: "a", input: { arguments: "[1,2]" } },
      { name: "b", input: { arguments: "5" } },
      { name: "c", input: { arguments: "{not json" } },
      { name: "d", input: { x: 1 } },
      { name: "e", input: { y: 2 } },
    ]);
  });

  it("names custom, local shell and other tool calls, with their input or action", () => {
    expect(
      turnOf([
        { type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch" },
        { type: "local_shell_call", action: { command: ["ls"] } },
        { type: "local_shell_call", action: "not an object" },
        { type: "web_search_call", action: { query: "q" } },
        { type: "web_search_call", action: ["q"] },
        { name: "", action: { a: 1 } },
        { type: "reasoning", summary: [] },
      ]).calls,
    ).toEqual([
      { name: "apply_patch", input: { input: "*** Begin Patch" } },
      { name: "local_shell", input: { command: ["ls"] } },
      { name: "local_shell", input: {} },
      { name: "web_search_call", input: { query: "q" } },
      { name: "web_search_call", input: {} },
      { name: "unknown", input: { a: 1 } },
    ]);
  });

  it("takes null as no object: no action, no usage, no item", () => {
    expect(turnOf([{ type: "local_shell_call", action: null }])).toEqual({
      text: "",
      calls: [{ name: "local_shell", input: {} }],
    });
    const whole = (body: object) => readOpenAiTurn("application/json", JSON.stringify(body));
    expect(
      whole({
        output: [null, "x", { type: "message", content: [{ type: "output_text", text: "hi" }] }],
        usage: null,
      }),
    ).toEqual({
      text: "hi",
      calls: [],
    });
    expect(() => whole({ status: "failed" })).toThrow(/^the response failed$/);
    expect(() => whole({ status: "failed", error: { message: "quota" } })).toThrow(/^quota$/);
  });

  it("takes text only from a message, not from a reasoning item's content", () => {
    expect(
      turnOf([
        { type: "reasoning", content: [{ type: "output_text", text: "thinking" }] },
        { type: "message", content: [{ type: "output_text", text: "answer" }] },
      ]).text,
    ).toBe("answer");
  });

  it("streamed: finished items only; the model and tokens from the created, completed or incomplete response", () => {
    const stream = (...list: object[]) => readOpenAiTurn(SSE, events(...list));
    const message = (text: string) => ({ type: "message", content: [{ type: "output_text", text }] });
    expect(
      stream(
        { type: "response.created", response: { model: "gpt-x" } },
        { type: "response.in_progress", response: { model: "not this one" } },
        { type: "response.output_item.added", output_index: 0, item: message("draft") },
        { type: "response.output_item.done", output_index: 0, item: message("final") },
        { type: "response.output_item.added", output_index: 1, item: message("never finished") },
        { type: "response.completed", response: { usage: { input_tokens: 5, output_tokens: 2 } } },
      ),
    ).toEqual({
      model: "gpt-x",
      usage: { inputTokens: 5, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
      text: "final",
      calls: [],
    });
    // No finished item: the incomplete response's own output, its objects only.
    expect(
      stream({
        type: "response.incomplete",
        response: { model: "gpt-y", output: [null, message("partial")] },
      }),
    ).toEqual({ model: "gpt-y", text: "partial", calls: [] });
    // Items finished at later indexes only: the indexes before them are skipped, not read.
    expect(
      stream(
        { type: "response.output_item.done", output_index: 2, item: message("late") },
        { type: "response.output_item.done", output_index: 4, item: { type: "function_call", name: "f" } },
      ),
    ).toEqual({ text: "late", calls: [{ name: "f", input: { arguments: undefined } }] });
    expect(() => stream({ type: "error" })).toThrow(/^the stream ended in an error$/);
    expect(() => stream({ type: "response.failed" })).toThrow(/^the response failed$/);
    expect(() => stream({ type: "response.failed", response: { error: { message: "quota" } } })).toThrow(
      /^quota$/,
    );
  });

  it("takes a message's output_text parts with text as its answer, and nothing else", () => {
    expect(
      turnOf([
        {
          type: "message",
          content: [
            { type: "output_text", text: "one" },
            { type: "output_text", text: "" },
          ],
        },
        { type: "message", content: "not a list" },
        { type: "message" },
        {
          type: "message",
          content: [{ type: "refusal", text: "no" }, "two", { type: "output_text", text: "three" }],
        },
      ]),
    ).toEqual({ text: "one\nthree", calls: [] });
  });
});

describe("a Gemini answer's first turn", () => {
  it("an error chunk with neither message nor status is named as an error answer", () => {
    expect(() => readGeminiTurn("application/json", JSON.stringify({ error: {} }))).toThrow(
      /^the answer was an error$/,
    );
    expect(() =>
      readGeminiTurn("application/json", JSON.stringify({ error: { status: "UNAVAILABLE" } })),
    ).toThrow(/^UNAVAILABLE$/);
  });
});
