import { describe, expect, it } from "vitest";
import { acpCommandOf, splitCommand } from "../../../src/agents/acp/command.js";
import { acpAgentName } from "../../../src/agents/acp/entry.js";
import { acpSkillLoad } from "../../../src/agents/acp/skill-load.js";
import { mergeToolCall } from "../../../src/agents/acp/tool-call.js";
import { parseAcpTranscript } from "../../../src/agents/acp/transcript.js";
import { createAcpMapper, errorStatus } from "../../../src/agents/acp/updates.js";
import type { AgentEvent } from "../../../src/agents/events.js";
import { detectTrigger } from "../../../src/triggers/detect.js";

const W = "/runs/haiku.run-1.a1/work";

// Shapes recorded from Gemini CLI 0.61 (`gemini --acp`) and Qwen Code 0.24.4 (`qwen --acp`) against skillgym sim.
const geminiRead = {
  sessionUpdate: "tool_call",
  toolCallId: "read_file__read_file_1795746270182_0",
  title: "notes.txt",
  kind: "read",
  status: "in_progress",
  content: [],
  locations: [{ path: `${W}/notes.txt` }],
};
const geminiReadDone = {
  sessionUpdate: "tool_call_update",
  toolCallId: "read_file__read_file_1795746270182_0",
  kind: "read",
  status: "completed",
  content: [],
};
const geminiSkillPermission = {
  toolCallId: "activate_skill__activate_skill_1795746272203_0",
  kind: "other",
  status: "pending",
  title: '"haiku": Writes haiku poems.',
  content: [],
  locations: [],
};
const qwenSkillPreparing = {
  sessionUpdate: "tool_call",
  toolCallId: "toolu_prompt1_1",
  title: "skill",
  kind: "other",
  status: "pending",
  content: [],
  locations: [],
  rawInput: {},
  _meta: { toolName: "skill", provenance: "builtin", phase: "preparing" },
};
const qwenSkillCall = {
  sessionUpdate: "tool_call",
  toolCallId: "toolu_prompt1_1",
  kind: "read",
  status: "pending",
  title: 'Use skill: "haiku"',
  rawInput: { skill: "haiku" },
  _meta: { toolName: "skill" },
};

const kinds = (events: AgentEvent[]) => events.map((e) => e.kind);

describe("ACP session updates as events", () => {
  it("maps Gemini CLI's read, its skill activation (first seen in a permission request) and its result", () => {
    const mapper = createAcpMapper({ skills: ["haiku"], model: "skillgym-sim" });
    const events = [
      ...mapper.update(geminiRead),
      ...mapper.update(geminiReadDone),
      ...mapper.permission(geminiSkillPermission),
      ...mapper.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Writ" } }),
      ...mapper.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ten." } }),
      ...mapper.update({ sessionUpdate: "plan", entries: [] }),
      ...mapper.finish({
        response: {
          stopReason: "end_turn",
          _meta: {
            quota: {
              token_count: { input_tokens: 100, output_tokens: 7 },
              model_usage: [{ model: "skillgym-sim", token_count: { input_tokens: 100, output_tokens: 7 } }],
            },
          },
        },
      }),
    ];
    expect(kinds(events)).toEqual([
      "tool_use",
      "tool_result",
      "tool_use",
      "skill_load",
      "text",
      "text",
      "unknown",
      "result",
    ]);
    expect(events[0]).toMatchObject({
      name: "read_file",
      tool: "read",
      input: { file_path: `${W}/notes.txt` },
    });
    expect(events[2]).toMatchObject({ name: "activate_skill", tool: "skill" });
    expect(events[3]).toEqual({
      kind: "skill_load",
      skill: "haiku",
      via: "tool",
      toolUseId: "activate_skill__activate_skill_1795746272203_0",
    });
    expect(events.at(-1)).toMatchObject({
      kind: "result",
      isError: false,
      subtype: "end_turn",
      text: "Written.",
      numTurns: 2,
      usage: { inputTokens: 100, outputTokens: 7 },
      costUsd: 0,
    });
    expect(detectTrigger(events, "haiku", "haiku").triggered).toBe(true);
  });

  it("waits for Qwen Code's tool call to say what it does, and counts its per-answer usage", () => {
    const mapper = createAcpMapper({ skills: ["haiku"] });
    expect(mapper.update(qwenSkillPreparing)).toEqual([]);
    const events = [
      ...mapper.update(qwenSkillCall),
      ...mapper.update({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "" },
        _meta: { usage: { inputTokens: 120, outputTokens: 10, cachedReadTokens: 20, totalTokens: 130 } },
      }),
      ...mapper.update({
        sessionUpdate: "tool_call_update",
        toolCallId: "toolu_prompt1_1",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "Base directory for this skill: …" } }],
      }),
    ];
    expect(kinds(events)).toEqual(["tool_use", "skill_load", "usage", "tool_result"]);
    expect(events[0]).toMatchObject({ name: "skill", tool: "skill", input: { skill: "haiku" } });
    expect(events[2]).toMatchObject({
      usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 20, cacheWriteTokens: 0 },
    });
    expect(events[3]).toMatchObject({ isError: false, content: "Base directory for this skill: …" });
    // No usage in the response: the streamed answers' tokens; no price for an unknown model.
    const [result] = mapper.finish({ response: { stopReason: "end_turn" } });
    expect(result).toMatchObject({ usage: { inputTokens: 100, outputTokens: 10 } });
    expect(result).not.toHaveProperty("costUsd");
  });

  it("leaves the cost unknown, never $0, when the agent reports no usage", () => {
    const mapper = createAcpMapper({ model: "claude-sonnet-4-5" });
    const [result] = mapper.finish({ response: { stopReason: "end_turn" } });
    expect(result).toMatchObject({ kind: "result", isError: false });
    expect(result).not.toHaveProperty("costUsd");
    expect(result).not.toHaveProperty("usage");
  });

  it("takes the cost the agent reports in dollars over a priced guess", () => {
    const mapper = createAcpMapper({ model: "claude-sonnet-4-5" });
    mapper.update({
      sessionUpdate: "usage_update",
      used: 10,
      size: 100,
      cost: { amount: 0.25, currency: "USD" },
    });
    const [result] = mapper.finish({
      response: { stopReason: "end_turn", usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } },
    });
    expect(result).toMatchObject({ costUsd: 0.25, usage: { inputTokens: 10, outputTokens: 2 } });
  });

  it("reads an error the agent answers the prompt with, and its HTTP status", () => {
    const mapper = createAcpMapper();
    const [result] = mapper.finish({
      error: {
        code: 529,
        message: '{"error":{"code":529,"message":"Simulated 529","status":"UNAVAILABLE"}}',
      },
    });
    expect(result).toMatchObject({ kind: "result", isError: true, apiErrorStatus: 529 });
    expect(errorStatus(-32603, "Request failed with status 429")).toBe(429);
    expect(errorStatus(-32000, "Authentication required.")).toBeUndefined();
  });

  it("marks a refusal or a turn limit as an error result, a cancelled turn by its reason", () => {
    const refusal = createAcpMapper().finish({ response: { stopReason: "refusal" } })[0];
    expect(refusal).toMatchObject({ isError: true, subtype: "refusal" });
    const cancelled = createAcpMapper().finish({ response: { stopReason: "cancelled" } })[0];
    expect(cancelled).toMatchObject({ isError: false, subtype: "cancelled" });
  });
});

describe("ACP skill-load detection", () => {
  const call = (update: Record<string, unknown>) => mergeToolCall(undefined, { toolCallId: "t", ...update });

  it("reads a skill tool's input, Gemini CLI's quoted title, or a bare title naming a listed skill", () => {
    expect(acpSkillLoad(call({ name: "skill", rawInput: { skill: "/haiku" } }))).toEqual({
      skill: "haiku",
      via: "tool",
    });
    expect(
      acpSkillLoad(call({ toolCallId: "activate_skill__activate_skill_1_0", title: '"pdf": Reads PDFs.' })),
    ).toEqual({ skill: "pdf", via: "tool" });
    expect(acpSkillLoad(call({ name: "Skill", title: "Skill haiku" }), ["haiku", "limerick"])).toEqual({
      skill: "haiku",
      via: "tool",
    });
    expect(acpSkillLoad(call({ name: "skill", title: "Skill" }), ["haiku"])).toBeUndefined();
    expect(acpSkillLoad(call({ name: "skill" }), ["haiku"])).toBeUndefined();
    // A blank input is no name; a name is trimmed, and only a leading slash goes.
    expect(acpSkillLoad(call({ name: "skill", rawInput: { skill: "  ", name: " haiku " } }))).toEqual({
      skill: "haiku",
      via: "tool",
    });
    expect(acpSkillLoad(call({ name: "skill", rawInput: { skill: "team/haiku" } }))).toEqual({
      skill: "team/haiku",
      via: "tool",
    });
  });

  it("takes a read of a SKILL.md by its location, input or title, and a shell command naming one", () => {
    expect(
      acpSkillLoad(call({ kind: "read", locations: [{ path: `${W}/.agents/skills/haiku/SKILL.md` }] })),
    ).toEqual({ skill: "haiku", via: "read" });
    expect(
      acpSkillLoad(call({ kind: "read", rawInput: { path: `${W}/.claude/skills/pdf/SKILL.md` } })),
    ).toEqual({
      skill: "pdf",
      via: "read",
    });
    expect(acpSkillLoad(call({ kind: "read", title: "Read .gemini/skills/haiku/SKILL.md" }))).toEqual({
      skill: "haiku",
      via: "read",
    });
    expect(acpSkillLoad(call({ kind: "execute", title: "cat .agents/skills/haiku/SKILL.md" }))).toEqual({
      skill: "haiku",
      via: "read",
    });
  });

  it("does not take a write, a search or another file for a skill load", () => {
    expect(
      acpSkillLoad(call({ kind: "edit", locations: [{ path: `${W}/.agents/skills/haiku/SKILL.md` }] })),
    ).toBe(undefined);
    expect(acpSkillLoad(call({ kind: "search", title: "**/SKILL.md" }))).toBeUndefined();
    expect(acpSkillLoad(call({ kind: "edit", title: "Edit .agents/skills/haiku/SKILL.md" }))).toBeUndefined();
    expect(
      acpSkillLoad(call({ kind: "read", locations: [{ path: `${W}/.agents/skills/haiku/notes.md` }] })),
    ).toBe(undefined);
  });
});

describe("acp:<command…>", () => {
  it("splits a command as a shell would, without running one", () => {
    expect(splitCommand(`gemini --acp`)).toEqual(["gemini", "--acp"]);
    expect(splitCommand(`"/opt/my agent/bin" --flag 'a b' c\\ d "x\\"y"`)).toEqual([
      "/opt/my agent/bin",
      "--flag",
      "a b",
      "c d",
      'x"y',
    ]);
    expect(splitCommand(`goose acp ''`)).toEqual(["goose", "acp", ""]);
    // In double quotes a backslash escapes only a quote or a backslash; outside quotes it escapes any character.
    expect(splitCommand(`"a\\\\b" "c\\d" "e\\\\" f`)).toEqual(["a\\b", "c\\d", "e\\", "f"]);
    expect(splitCommand(`"ab" \\x y\\`)).toEqual(["ab", "x", "y\\"]);
    expect(() => splitCommand(`gemini "--acp`)).toThrow(/unclosed " quote/);
  });

  it("refuses an empty command and names the runs acp-<program>", () => {
    const errorOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error;
      }
    };
    expect(errorOf(() => acpCommandOf("acp:"))).toMatchObject({
      code: "USAGE",
      message: '--agent acp:: no command after "acp:"',
      hint: `name the agent's command after "acp:", e.g. --agent 'acp:gemini --acp'`,
    });
    expect(errorOf(() => acpCommandOf(`acp:gemini "--acp`, "--judge-agent"))).toMatchObject({
      code: "USAGE",
      message: `--judge-agent acp:gemini "--acp: unclosed " quote`,
      hint: `name the agent's command after "acp:", e.g. --judge-agent 'acp:gemini --acp'`,
    });
    expect(() => acpCommandOf("acp:   ")).toThrow(/no command/);
    expect(acpAgentName("acp:gemini --acp")).toBe("acp-gemini");
    expect(acpAgentName("acp:/usr/local/bin/Cursor-Agent acp")).toBe("acp-cursor-agent");
    expect(acpAgentName("acp:npx @zed-industries/claude-code-acp")).toBe("acp-npx");
    // Only a trailing script extension goes; a run of other characters becomes one dash; no leading dot or dash.
    expect(acpAgentName("acp:/opt/my.jsagent.mjs")).toBe("acp-my.jsagent");
    expect(acpAgentName("acp:my@@agent")).toBe("acp-my-agent");
    expect(acpAgentName("acp:..agent")).toBe("acp-agent");
    expect(acpAgentName("acp:---")).toBe("acp");
  });
});

describe("a stored ACP transcript", () => {
  it("replays into the events the run had", () => {
    const lines = [
      { from: "client", message: { jsonrpc: "2.0", id: 0, method: "initialize", params: {} } },
      {
        from: "skillgym",
        init: { kind: "init", model: "skillgym-sim", tools: [], skills: ["haiku"], sessionId: "s" },
      },
      {
        from: "agent",
        message: { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: geminiRead } },
      },
      { from: "skillgym", allowed: geminiSkillPermission },
      {
        from: "skillgym",
        refused: { kind: "refused", what: "read", target: "/etc/passwd", reason: "outside the workspace" },
      },
      { from: "skillgym", end: { response: { stopReason: "end_turn" } } },
    ];
    const events = parseAcpTranscript(lines.map((l) => JSON.stringify(l)).join("\n"));
    expect(kinds(events)).toEqual(["init", "tool_use", "tool_use", "skill_load", "refused", "result"]);
  });
});
