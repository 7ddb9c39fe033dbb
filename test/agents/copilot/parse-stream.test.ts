import { describe, expect, it } from "vitest";
import { parseCopilotTranscript } from "../../../src/agents/copilot/parse-stream.js";

const lines = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join("\n");

describe("Copilot CLI's stream, event by event", () => {
  it("reads a whole run into exact events", () => {
    const text = lines([
      {
        type: "session.skills_loaded",
        data: {
          skills: [
            { name: "haiku", enabled: true },
            { name: "off", enabled: false },
            { name: "" },
            { name: "limerick" },
            "junk",
          ],
        },
      },
      {
        type: "assistant.message",
        data: {
          messageId: "m1",
          content: "Reading.",
          toolRequests: [
            { toolCallId: "c1", name: "view", arguments: { path: "/w/.github/skills/haiku/SKILL.md" } },
            { toolCallId: "c2", name: "bash", arguments: "x" },
            { toolCallId: "c3", name: "mystery" },
            "junk",
          ],
        },
      },
      {
        type: "tool.execution_complete",
        data: { toolCallId: "c1", success: true, result: { content: "# haiku" } },
      },
      {
        type: "tool.execution_complete",
        data: { toolCallId: "c2", success: false, error: { message: "denied" } },
      },
      {
        type: "tool.execution_complete",
        data: { toolCallId: "c3", success: "yes", result: { content: "partial" } },
      },
      { type: "assistant.message", data: { messageId: "m2", content: "", toolRequests: "x" } },
      { type: "assistant.message", data: { messageId: "m3", content: "Done." } },
      { type: "assistant.turn_end", data: {} },
      {},
      { type: "result", exitCode: 0, usage: { sessionDurationMs: 3382 } },
    ]);
    expect(parseCopilotTranscript(`${text}\n\nnot json`)).toEqual([
      { kind: "init", model: "", tools: [], skills: ["haiku", "limerick"] },
      { kind: "text", text: "Reading.", messageId: "m1" },
      {
        kind: "tool_use",
        id: "c1",
        name: "view",
        input: { path: "/w/.github/skills/haiku/SKILL.md" },
        messageId: "m1",
        tool: "read",
      },
      { kind: "skill_load", skill: "haiku", via: "read", toolUseId: "c1" },
      { kind: "tool_use", id: "c2", name: "bash", input: {}, messageId: "m1", tool: "shell" },
      { kind: "tool_use", id: "c3", name: "mystery", input: {}, messageId: "m1", tool: "other" },
      { kind: "tool_result", toolUseId: "c1", isError: false, content: "# haiku" },
      { kind: "tool_result", toolUseId: "c2", isError: true, content: "denied" },
      { kind: "tool_result", toolUseId: "c3", isError: true, content: "partial" },
      { kind: "text", text: "Done.", messageId: "m3" },
      { kind: "unknown", type: "assistant.turn_end" },
      { kind: "unknown", type: "untyped" },
      { kind: "result", isError: false, subtype: "success", text: "Done.", numTurns: 3, durationMs: 3382 },
      { kind: "unknown", type: "non-json" },
    ]);
  });

  it("gives every tool its kind", () => {
    const kinds = Object.entries({
      bash: "shell",
      read_bash: "shell",
      write_bash: "shell",
      stop_bash: "shell",
      list_bash: "shell",
      view: "read",
      create: "write",
      edit: "edit",
      grep: "search",
      glob: "search",
      web_fetch: "search",
      skill: "skill",
      task: "other",
    });
    const events = parseCopilotTranscript(
      lines([
        {
          type: "assistant.message",
          data: { toolRequests: kinds.map(([name], i) => ({ toolCallId: `t${i}`, name })) },
        },
      ]),
    );
    expect(events.flatMap((e) => (e.kind === "tool_use" ? [[e.name, e.tool]] : []))).toEqual(kinds);
    expect(events[0]).toEqual({ kind: "init", model: "", tools: [], skills: [] });
  });

  it("a session error before the result: its message, type and status", () => {
    expect(
      parseCopilotTranscript(
        lines([
          { type: "assistant.message", data: { messageId: "m1", content: "Half" } },
          {
            type: "session.error",
            data: { message: "rate limited", errorType: "rate_limit", statusCode: 429 },
          },
          { type: "result", exitCode: 0 },
        ]),
      ),
    ).toEqual([
      { kind: "init", model: "", tools: [], skills: [] },
      { kind: "text", text: "Half", messageId: "m1" },
      {
        kind: "result",
        isError: true,
        subtype: "rate_limit",
        text: "rate limited",
        numTurns: 1,
        apiErrorStatus: 429,
      },
    ]);
    expect(
      parseCopilotTranscript(
        lines([
          { type: "session.error", data: { message: "" } },
          { type: "result", exitCode: 0 },
        ]),
      ).at(-1),
    ).toEqual({ kind: "result", isError: true, subtype: "error", text: "", numTurns: 0 });
  });

  it("takes the skills only from a skills_loaded first line", () => {
    const other = { type: "session.info", data: { skills: [{ name: "haiku" }] } };
    expect(parseCopilotTranscript(lines([other])).at(0)).toEqual({
      kind: "init",
      model: "",
      tools: [],
      skills: [],
    });
  });

  it("an exit code without an error: the last answer, exit <code>", () => {
    expect(
      parseCopilotTranscript(
        lines([
          { type: "assistant.message", data: { content: "Partial" } },
          { type: "result", exitCode: 2, usage: { premiumRequests: 1 } },
        ]),
      ).at(-1),
    ).toStrictEqual({ kind: "result", isError: true, subtype: "exit 2", text: "Partial", numTurns: 1 });
    expect(parseCopilotTranscript(lines([{ type: "result", exitCode: "1" }]))).toStrictEqual([
      { kind: "init", model: "", tools: [], skills: [] },
      { kind: "result", isError: false, subtype: "success", text: "", numTurns: 0 },
    ]);
  });
});
