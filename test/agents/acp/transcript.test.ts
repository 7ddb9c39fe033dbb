import { describe, expect, it } from "vitest";
import { parseAcpTranscript } from "../../../src/agents/acp/transcript.js";
import { costOf } from "../../../src/agents/pricing.js";

const lines = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join("\n");
const update = (u: object) => ({
  from: "agent",
  message: { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: u } },
});

describe("parseAcpTranscript", () => {
  it("replays the agent's updates and skillgym's own lines, priced as the init's model, with its skills", () => {
    const init = { kind: "init", model: "claude-sonnet-4-5", tools: [], skills: ["haiku"], sessionId: "s" };
    const text = lines([
      { from: "client", message: { jsonrpc: "2.0", id: 0, method: "initialize", params: {} } },
      { from: "agent", message: { jsonrpc: "2.0", id: 0, result: {} } },
      { from: "skillgym", init },
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Loading." } }),
      // Only the agent's updates are replayed.
      {
        from: "client",
        message: update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "No." } })
          .message,
      },
      { from: "agent", message: { jsonrpc: "2.0", method: "session/update", params: { update: "x" } } },
      { from: "agent", message: { jsonrpc: "2.0", method: "session/other", params: { update: {} } } },
      { from: "agent", message: "x" },
      { from: "skillgym", allowed: { toolCallId: "t1", name: "skill", title: "Skill haiku" } },
      {
        from: "skillgym",
        refused: { kind: "refused", what: "read", target: "/etc/x", reason: "outside the workspace" },
      },
      { from: "skillgym", init: { kind: "other" } },
      { from: "skillgym", other: {} },
      { from: "someone", end: {} },
      {
        from: "skillgym",
        end: { response: { stopReason: "end_turn", usage: { inputTokens: 100, outputTokens: 10 } } },
      },
    ]);
    const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };
    expect(parseAcpTranscript(`${text}\nnot json\n`)).toEqual([
      init,
      { kind: "text", text: "Loading.", messageId: "turn-1" },
      {
        kind: "tool_use",
        id: "t1",
        name: "skill",
        input: { title: "Skill haiku" },
        messageId: "turn-1",
        tool: "skill",
      },
      { kind: "skill_load", skill: "haiku", via: "tool", toolUseId: "t1" },
      { kind: "refused", what: "read", target: "/etc/x", reason: "outside the workspace" },
      {
        kind: "result",
        isError: false,
        subtype: "end_turn",
        text: "Loading.",
        numTurns: 1,
        usage,
        costUsd: costOf("claude-sonnet-4-5", usage),
      },
      { kind: "unknown", type: "non-json" },
    ]);
  });

  it("without an init line, reads a skill tool's title by the skills given", () => {
    const text = lines([
      { from: "skillgym", allowed: { toolCallId: "t", name: "skill", title: "Skill haiku" } },
    ]);
    expect(parseAcpTranscript(text, ["haiku"]).map((e) => e.kind)).toEqual(["tool_use", "skill_load"]);
    expect(parseAcpTranscript(text).map((e) => e.kind)).toEqual(["tool_use"]);
  });
});
