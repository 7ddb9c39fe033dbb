import { describe, expect, it } from "vitest";
import { parseSkillList } from "../../src/sim/conversation.js";
import { type MessagesRequest, readConversation } from "../../src/sim/protocols/anthropic-messages.js";

const skillListing =
  "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n" +
  "- a-skill: does A.\n- other: does B.\n- colon-skill: does C: with a colon, and more: here.\n\n" +
  "next paragraph\n</system-reminder>";

function claudeCodeRequest(assistantTurns: number): MessagesRequest {
  const messages: NonNullable<MessagesRequest["messages"]> = [
    {
      role: "user",
      content: [
        { type: "text", text: "<system-reminder>\nAs you answer the user's questions…\n</system-reminder>" },
        { type: "text", text: skillListing },
        { type: "text", text: "the prompt" },
      ],
    },
  ];
  for (let i = 0; i < assistantTurns; i++) {
    messages.push({ role: "assistant", content: [{ type: "tool_use", text: undefined }] });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", content: [{ type: "text", text: `result ${i}` }] }],
    });
  }
  return {
    model: "claude-sonnet-4-5",
    system: [
      { type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude." },
      {
        type: "text",
        text: "Here is useful information about the environment you are running in:\n<env>\nPrimary working directory: /x/y\nIs directory a git repo: No\n</env>",
      },
    ],
    messages,
    tools: [{ name: "Bash" }, { name: "Skill" }],
    stream: true,
  };
}

describe("readConversation", () => {
  it("reads prompt, skills, cwd and turn from a Claude Code request", () => {
    const conversation = readConversation(claudeCodeRequest(2));
    expect(conversation.prompt).toBe("the prompt");
    expect(conversation.cwd).toBe("/x/y");
    expect(conversation.turn).toBe(2);
    expect(conversation.hasTools).toBe(true);
    expect(conversation.model).toBe("claude-sonnet-4-5");
    expect(conversation.skills).toEqual([
      { name: "a-skill", description: "does A." },
      { name: "other", description: "does B." },
      { name: "colon-skill", description: "does C: with a colon, and more: here." },
    ]);
  });

  it("counts no turns and no tools in a bare request", () => {
    const conversation = readConversation({ messages: [{ role: "user", content: "hello there" }] });
    expect(conversation).toEqual({
      prompt: "hello there",
      cwd: undefined,
      skills: [],
      turn: 0,
      hasTools: false,
      model: "unknown",
    });
  });

  it("skips user messages that hold only harness text when looking for the prompt", () => {
    const conversation = readConversation({
      messages: [
        { role: "user", content: [{ type: "text", text: "  <command-name>/init</command-name>" }] },
        { role: "user", content: "the real prompt " },
      ],
    });
    expect(conversation.prompt).toBe("the real prompt");
  });

  it("reads no prompt and no history from a request without a user's text", () => {
    expect(readConversation({ messages: [{ role: "user" }, { role: "assistant", content: "hi" }] })).toEqual({
      prompt: "",
      cwd: undefined,
      skills: [],
      turn: 1,
      hasTools: false,
      model: "unknown",
    });
  });

  it("reads a resumed conversation's earlier turns as history: their texts and tool results, not harness text", () => {
    const conversation = readConversation({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: skillListing },
            { type: "text", text: "first prompt" },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use" }] },
        {
          role: "user",
          content: [
            { type: "tool_result", content: [{ type: "text", text: "listing" }] },
            { type: "tool_result", content: "exit 0" },
            { type: "tool_result", content: { type: "image" } },
            { type: "tool_result" },
          ],
        },
        { role: "assistant", content: "done" },
        { role: "user", content: "second prompt" },
      ],
    });
    expect(conversation).toMatchObject({
      prompt: "second prompt",
      turn: 0,
      history: ["first prompt", "listing", "exit 0", "done"],
    });
  });

  it("finds the skill list in the system text as well", () => {
    const conversation = readConversation({
      system: "The following skills are available for use with the Skill tool:\n\n- sys-skill: from system.",
      messages: [{ role: "user", content: "x" }],
    });
    expect(conversation.skills).toEqual([{ name: "sys-skill", description: "from system." }]);
  });
});

describe("parseSkillList", () => {
  it("stops at the blank line after the list", () => {
    const text =
      "The following skills are available for use with the Skill tool:\r\n\r\n- one: first.\r\n\r\n- two: not in the list.";
    expect(parseSkillList(text)).toEqual([{ name: "one", description: "first." }]);
  });

  it("finds nothing without the header", () => {
    expect(parseSkillList("- one: first.")).toEqual([]);
  });

  // Claude Code writes `- ${name}` with no description for skills over its listing budget (formatCommandsWithinBudget).
  it("keeps a name-only entry and the skills listed after it", () => {
    const text =
      "The following skills are available for use with the Skill tool:\n\n- first: does one.\n- bare\n- last: does three.";
    expect(parseSkillList(text)).toEqual([
      { name: "first", description: "does one." },
      { name: "bare", description: "" },
      { name: "last", description: "does three." },
    ]);
  });

  // Plugin skills are listed under namespaced names such as `plugin:skill`.
  it("keeps a namespaced plugin skill and the skills listed after it", () => {
    const text =
      "The following skills are available for use with the Skill tool:\n\n- plug:tool: does T.\n- mine: does M.";
    expect(parseSkillList(text)).toEqual([
      { name: "plug:tool", description: "does T." },
      { name: "mine", description: "does M." },
    ]);
  });
});
