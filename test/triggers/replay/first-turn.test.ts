import { describe, expect, it } from "vitest";
import { SIM_MODEL } from "../../../src/contracts/sim-model.js";
import type { SimReply } from "../../../src/sim/model.js";
import { anthropicMessages } from "../../../src/sim/protocols/anthropic-messages.js";
import { readAnthropicTurn } from "../../../src/triggers/replay/anthropic-turn.js";
import { claudeCodeReplay } from "../../../src/triggers/replay/claude-code.js";
import { classifyFirstTurn, type FirstTurn } from "../../../src/triggers/replay/first-turn.js";

const OURS = "haiku-sg-1a2b3c4d";
const classify = (turn: FirstTurn) => classifyFirstTurn(turn, OURS, claudeCodeReplay.skillOf);
const call = (name: string, input: Record<string, unknown>) => ({ name, input });

describe("a replayed first turn of Claude Code's", () => {
  it("is triggered by its Skill tool naming our skill, or a Read of our SKILL.md", () => {
    expect(classify({ text: "", calls: [call("Skill", { skill: OURS })] })).toEqual({ label: "triggered" });
    expect(classify({ text: "", calls: [call("Skill", { command: `/${OURS}` })] })).toEqual({
      label: "triggered",
    });
    expect(
      classify({ text: "", calls: [call("Read", { file_path: `/w/.claude/skills/${OURS}/SKILL.md` })] }),
    ).toEqual({ label: "triggered" });
  });

  it("is stolen when every call loads another skill", () => {
    expect(classify({ text: "", calls: [call("Skill", { skill: "changelog" })] })).toEqual({
      label: "stolen",
      by: ["changelog"],
    });
    expect(
      classify({ text: "", calls: [call("Read", { file_path: "/w/.claude/skills/notes/SKILL.md" })] }),
    ).toEqual({ label: "stolen", by: ["notes"] });
  });

  it("is not triggered when it answers in text alone", () => {
    expect(classify({ text: "Four.", calls: [] })).toEqual({ label: "not-triggered" });
  });

  it("is undecided on anything else: a shell call, a file read, a search, or a mix with one", () => {
    expect(classify({ text: "", calls: [call("Bash", { command: "ls" })] })).toEqual({ label: "undecided" });
    expect(classify({ text: "", calls: [call("Read", { file_path: "/w/README.md" })] })).toEqual({
      label: "undecided",
    });
    expect(classify({ text: "", calls: [call("Grep", { pattern: "x" })] })).toEqual({ label: "undecided" });
    expect(
      classify({ text: "", calls: [call("Skill", { skill: "changelog" }), call("Bash", { command: "ls" })] }),
    ).toEqual({ label: "undecided" });
  });

  it("counts our skill anywhere in the turn as triggered", () => {
    expect(
      classify({ text: "", calls: [call("Bash", { command: "ls" }), call("Skill", { skill: OURS })] }),
    ).toEqual({ label: "triggered" });
  });
});

// The sim's own writer makes the answers: the same bytes a replay reads from it.
function answer(content: SimReply["content"], stream: boolean) {
  const reply: SimReply = { kind: "turn", action: "", latencyMs: 0, content, outputTokens: 3 };
  const wire = {
    request: { conversation: {} as never, judgeText: "", session: "s" },
    stream,
    inputTokens: 10,
  };
  const written = anthropicMessages.write(reply, wire, 1);
  return readAnthropicTurn(written.headers["content-type"] ?? "", written.body);
}

describe("reading an Anthropic Messages answer", () => {
  const content: SimReply["content"] = [
    { type: "text", text: "Let me look." },
    { type: "tool_use", id: "toolu_1", name: "Skill", input: { skill: OURS } },
  ];
  const read = {
    text: "Let me look.",
    calls: [call("Skill", { skill: OURS })],
    model: SIM_MODEL,
    usage: { inputTokens: 10, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 },
  };
  it("puts a streamed answer (SSE) back together: text, tool calls with their input, model and tokens", () => {
    expect(answer(content, true)).toEqual(read);
  });
  it("reads a whole answer (JSON) the same", () => {
    expect(answer(content, false)).toEqual(read);
  });
  it("fails on a stream that ends in an error event", () => {
    expect(() =>
      readAnthropicTurn(
        "text/event-stream",
        'event: error\ndata: {"type":"error","error":{"message":"overloaded"}}\n\n',
      ),
    ).toThrow(/overloaded/);
  });
});
