import { describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { buildGraderPrompt } from "../../src/judge/grader.js";
import type { Conversation } from "../../src/sim/conversation.js";
import { createSimModel } from "../../src/sim/model.js";

const { system, prompt } = buildGraderPrompt({
  prompt: "Write notes.md",
  expectations: ["notes.md has a title"],
  outputs: [{ path: "notes.md", content: "# Notes" }],
  transcript: "",
});

function conversation(turn: number, hasTools: boolean): Conversation {
  return { prompt, cwd: "/runs/r1", skills: [], turn, hasTools, model: "skillgym-sim" };
}

const script = SimScript.parse({
  judge: { steps: [{ write: { path: "judge-wrote.txt", content: "x" } }, { bash: "touch judge-shell.txt" }] },
});

describe("a sim judge's scripted tool steps", () => {
  it("are taken one a turn by a judge whose agent offers tools, then the verdict comes", () => {
    const model = createSimModel(script);
    const reply = (turn: number) =>
      model.reply({
        conversation: conversation(turn, true),
        judgeText: `${system}\n${prompt}`,
        session: "s1",
      });
    const first = reply(0);
    expect(first.kind).toBe("judge");
    expect(first.content[0]).toMatchObject({ id: "toolu_s1_0" });
    expect(first.content).toEqual([
      expect.objectContaining({
        type: "tool_use",
        name: "Write",
        input: { file_path: "/runs/r1/judge-wrote.txt", content: "x" },
      }),
    ]);
    expect(first.action).toMatch(/^judge grader Write /);
    expect(reply(1).content).toEqual([
      expect.objectContaining({
        type: "tool_use",
        name: "Bash",
        input: expect.objectContaining({ command: "touch judge-shell.txt" }),
      }),
    ]);
    const last = reply(2);
    expect(last.action).toBe("judge grader");
    expect(last.content).toEqual([{ type: "text", text: expect.stringContaining('"expectations"') }]);
  });

  it("name their tool calls after the session, in at most 16 letters and digits", () => {
    const model = createSimModel(script);
    const reply = model.reply({
      conversation: conversation(1, true),
      judgeText: `${system}\n${prompt}`,
      session: "judge/session-0123456789",
    });
    expect(reply.content[0]).toMatchObject({ type: "tool_use", id: "toolu_judgesession0123_1" });
  });

  it("are skipped by a judge with no tools (an API judge): it answers at once", () => {
    const model = createSimModel(script);
    const reply = model.reply({
      conversation: conversation(0, false),
      judgeText: `${system}\n${prompt}`,
      session: "s2",
    });
    expect(reply.action).toBe("judge grader");
    expect(reply.content[0]).toEqual({ type: "text", text: expect.stringContaining('"expectations"') });
  });
});
