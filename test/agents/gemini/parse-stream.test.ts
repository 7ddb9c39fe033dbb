import { describe, expect, it } from "vitest";
import { apiErrorStatus, parseGeminiTranscript } from "../../../src/agents/gemini/parse-stream.js";
import { isToolNamed } from "../../../src/agents/registry.js";
import { detectTrigger, stolenBy } from "../../../src/triggers/detect.js";

const line = (value: unknown) => JSON.stringify(value);

// Shapes recorded from `gemini -p … --output-format stream-json` (0.61.0) against a local server.
const init = { type: "init", timestamp: "t", session_id: "b0978bdd", model: "gemini-2.5-pro" };
const user = { type: "message", timestamp: "t", role: "user", content: "Write a haiku" };
const toolUse = (id: string, name: string, parameters: object) => ({
  type: "tool_use",
  timestamp: "t",
  tool_name: name,
  tool_id: id,
  parameters,
});
const toolResult = (id: string, status = "success") => ({
  type: "tool_result",
  timestamp: "t",
  tool_id: id,
  status,
  output: "done",
});
const text = (content: string) => ({
  type: "message",
  timestamp: "t",
  role: "assistant",
  content,
  delta: true,
});
const result = {
  type: "result",
  timestamp: "t",
  status: "success",
  stats: {
    total_tokens: 2300,
    input_tokens: 2000,
    output_tokens: 300,
    cached: 500,
    input: 1500,
    duration_ms: 173,
    tool_calls: 2,
    models: {
      "gemini-2.5-pro": {
        total_tokens: 2300,
        input_tokens: 2000,
        output_tokens: 300,
        cached: 500,
        input: 1500,
      },
    },
  },
};

const transcript = [
  init,
  user,
  toolUse("read_1", "read_file", { file_path: "/w/notes.txt" }),
  toolResult("read_1"),
  text("Using the skill. "),
  toolUse("skill_1", "activate_skill", { name: "haiku-sg-1" }),
  toolResult("skill_1"),
  text("Autumn "),
  text("moon."),
  result,
]
  .map(line)
  .join("\n");

describe("Gemini CLI stream-json as normalised events", () => {
  const events = parseGeminiTranscript(transcript);

  it("gives tool calls their kind and follows an activate_skill call with its skill_load", () => {
    expect(events.flatMap((e) => (e.kind === "tool_use" ? [[e.name, e.tool, e.messageId]] : []))).toEqual([
      ["read_file", "read", "turn-1"],
      ["activate_skill", "skill", "turn-2"],
    ]);
    expect(events.filter((e) => e.kind === "skill_load")).toEqual([
      { kind: "skill_load", skill: "haiku-sg-1", via: "tool", toolUseId: "skill_1" },
    ]);
    expect(detectTrigger(events, "haiku-sg-1", "haiku").triggered).toBe(true);
  });

  it("counts a read of a skill's SKILL.md as loading it, and a competing skill as stolen_by", () => {
    const other = parseGeminiTranscript(
      [toolUse("r", "read_file", { file_path: "/w/.gemini/skills/limerick/SKILL.md" }), result]
        .map(line)
        .join("\n"),
    );
    expect(other.filter((e) => e.kind === "skill_load")).toEqual([
      { kind: "skill_load", skill: "limerick", via: "read", toolUseId: "r" },
    ]);
    expect(stolenBy(detectTrigger(other, "haiku-sg-1", "haiku"), "haiku")).toEqual(["limerick"]);
  });

  it("ends with a result holding the last answer's text, its turns, tokens and cost", () => {
    const end = events.at(-1);
    expect(end).toMatchObject({
      kind: "result",
      isError: false,
      subtype: "success",
      text: "Autumn moon.",
      numTurns: 3,
      durationMs: 173,
      usage: {
        inputTokens: 1500,
        outputTokens: 300,
        cacheReadTokens: 500,
        cacheWriteTokens: 0,
      },
    });
    // 1500 × $1.25 + 500 × $0.125 + 300 × $10 per million tokens.
    expect(end?.kind === "result" ? end.costUsd : undefined).toBeCloseTo(0.0049375, 10);
    expect(events[0]).toMatchObject({ kind: "init", model: "gemini-2.5-pro", sessionId: "b0978bdd" });
  });

  it("reads an API error's status out of Gemini CLI's message", () => {
    const failed = parseGeminiTranscript(
      line({
        type: "result",
        status: "error",
        error: {
          type: "unknown",
          message: '[API Error: {"error":{"code":529,"message":"busy","status":"UNAVAILABLE"}}]',
        },
        stats: {},
      }),
    );
    expect(failed[0]).toMatchObject({ kind: "result", isError: true, apiErrorStatus: 529 });
    expect(apiErrorStatus("[API Error: Simulated 429 (RESOURCE_EXHAUSTED)]")).toBe(429);
    expect(apiErrorStatus("no status here")).toBeUndefined();
    expect(apiErrorStatus('[API Error: {"error":{"code":400,"message":"bad"}}]')).toBe(400);
    expect(apiErrorStatus('[API Error: {"error": {"code" : 404}}]')).toBe(404);
    expect(apiErrorStatus('{"code": "40x"} after 5 tries')).toBeUndefined();
  });

  it("leaves out what a run's result does not report", () => {
    const [end] = parseGeminiTranscript(line({ type: "result", status: "success", stats: {} }));
    expect(end).toStrictEqual({
      kind: "result",
      isError: false,
      subtype: "success",
      text: "",
      numTurns: 0,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
  });

  it("gives a tool result with neither output nor error empty content", () => {
    expect(parseGeminiTranscript(line({ type: "tool_result", tool_id: "t", status: "success" }))).toEqual([
      { kind: "tool_result", toolUseId: "t", isError: false, content: "" },
    ]);
  });

  it("tolerates lines it does not know", () => {
    expect(
      parseGeminiTranscript(
        'not json\n{"type":"error","message":"x"}\n{"type":"thought","role":"assistant"}',
      ),
    ).toEqual([
      { kind: "unknown", type: "non-json" },
      { kind: "unknown", type: "error" },
      { kind: "unknown", type: "thought" },
    ]);
  });
});

describe("a check naming a Claude Code tool, on Gemini CLI's calls", () => {
  it("matches the call of the same kind, and Claude Code's own calls only by their name", () => {
    const [read] = parseGeminiTranscript(line(toolUse("r", "read_file", { file_path: "/w/a" })));
    const [shell] = parseGeminiTranscript(line(toolUse("s", "run_shell_command", { command: "ls" })));
    if (read?.kind !== "tool_use" || shell?.kind !== "tool_use") throw new Error("expected tool calls");
    expect([isToolNamed(read, "Read"), isToolNamed(read, "read_file"), isToolNamed(read, "Bash")]).toEqual([
      true,
      true,
      false,
    ]);
    expect(isToolNamed(shell, "Bash")).toBe(true);
    const grep = { kind: "tool_use" as const, id: "g", name: "Grep", input: {}, tool: "search" as const };
    expect(isToolNamed(grep, "Glob")).toBe(false);
  });
});
