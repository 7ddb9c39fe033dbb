import { describe, expect, it } from "vitest";
import { attemptFolderName } from "../../src/contracts/run-marker.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import type { Conversation } from "../../src/sim/conversation.js";
import { createSimModel } from "../../src/sim/model.js";
import { anthropicMessages } from "../../src/sim/protocols/anthropic-messages.js";
import { gemini } from "../../src/sim/protocols/gemini.js";
import { openaiResponses } from "../../src/sim/protocols/openai-responses.js";
import { claudeRequest } from "./sim-client.js";

const script = SimScript.parse({
  rules: [{ skill: "haiku", trigger_pattern: [true, false, true, false, false] }],
});
const workOf = (run: number, attempt = 1) =>
  `/tmp/skillgym-x/${attemptFolderName(`q1-r${run}`, run, attempt)}/work`;

function conversation(cwd: string | undefined, prompt = "Write a haiku about rain"): Conversation {
  return {
    prompt,
    cwd,
    skills: [{ name: "haiku", description: "Writes haiku poems." }],
    turn: 0,
    hasTools: true,
    model: "skillgym-sim",
  };
}

const loads = (reply: ReturnType<ReturnType<typeof createSimModel>["reply"]>) =>
  reply.content.some((b) => b.type === "tool_use" && b.name === "Skill");

describe("the simulator's per-run patterns follow the run number", () => {
  it("gives run n the pattern's entry n-1 (mod its length), in whatever order the runs come", () => {
    const model = createSimModel(script);
    const order = [7, 3, 1, 6, 2, 5, 4];
    const seen = new Map<number, boolean>();
    for (const run of order)
      seen.set(
        run,
        loads(model.reply({ conversation: conversation(workOf(run)), judgeText: "", session: `s${run}` })),
      );
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => seen.get(n))).toEqual([
      true,
      false,
      true,
      false,
      false,
      true,
      false,
    ]);
  });

  it("gives the same answer to a run asked twice (a shard, a reused neighbour) and to a retried attempt", () => {
    const model = createSimModel(script);
    const first = loads(model.reply({ conversation: conversation(workOf(3)), judgeText: "", session: "a" }));
    const again = loads(model.reply({ conversation: conversation(workOf(3)), judgeText: "", session: "b" }));
    const retried = loads(
      model.reply({ conversation: conversation(workOf(3, 2)), judgeText: "", session: "c" }),
    );
    const fresh = createSimModel(script);
    const elsewhere = loads(
      fresh.reply({ conversation: conversation(workOf(3)), judgeText: "", session: "d" }),
    );
    expect([first, again, retried, elsewhere]).toEqual([true, true, true, true]);
    expect(loads(fresh.reply({ conversation: conversation(workOf(2)), judgeText: "", session: "e" }))).toBe(
      false,
    );
  });

  it("counts a client's own sessions as they come when the request names no run", () => {
    const model = createSimModel(script);
    const played = ["a", "b", "c", "d", "e", "f"].map((s) =>
      loads(model.reply({ conversation: conversation("/home/me/project"), judgeText: "", session: s })),
    );
    expect(played).toEqual([true, false, true, false, false, true]);
  });

  it("hands the entries out in arrival order, whatever run a session names, when the rule says pattern_by arrival", () => {
    const arrival = createSimModel(
      SimScript.parse({
        rules: [{ skill: "haiku", trigger_pattern: [true, false, false, true], pattern_by: "arrival" }],
      }),
    );
    // Two arms of run 1, then two of run 2, as an A/A plan reaches the simulator at concurrency 1.
    const played = [1, 1, 2, 2, 3].map((run, i) =>
      loads(arrival.reply({ conversation: conversation(workOf(run)), judgeText: "", session: `s${i}` })),
    );
    expect(played).toEqual([true, false, false, true, true]);
  });

  it("refuses a pattern_by other than run or arrival", () => {
    expect(SimScript.safeParse({ rules: [{ trigger_pattern: [true], pattern_by: "random" }] }).success).toBe(
      false,
    );
  });

  it("does not let a faulted session use up a counted entry", () => {
    const faulty = SimScript.parse({
      rules: [{ skill: "haiku", trigger_pattern: [false, true], fault: { status: 529, sessions: 1 } }],
    });
    const model = createSimModel(faulty);
    expect(model.reply({ conversation: conversation(undefined), judgeText: "", session: "x" }).fault).toBe(
      529,
    );
    expect(loads(model.reply({ conversation: conversation(undefined), judgeText: "", session: "y" }))).toBe(
      false,
    );
    expect(loads(model.reply({ conversation: conversation(undefined), judgeText: "", session: "z" }))).toBe(
      true,
    );
  });
});

describe("every protocol carries the run number in the working directory it reads", () => {
  const prompt = "Write a haiku about rain";

  it("Claude Code's primary working directory", () => {
    const model = createSimModel(script);
    const answer = (run: number) =>
      loads(
        model.reply(
          anthropicMessages.read(
            JSON.stringify(claudeRequest({ prompt, cwd: workOf(run), skills: { haiku: "Writes haiku." } })),
            { "x-claude-code-session-id": `run-${run}` },
          ).request,
        ),
      );
    expect([2, 1, 3].map(answer)).toEqual([false, true, true]);
  });

  it("Codex's <cwd>", () => {
    const model = createSimModel(script);
    const body = (run: number) =>
      JSON.stringify({
        model: "skillgym-sim",
        tools: [{ type: "function", name: "exec_command" }],
        input: [
          {
            type: "message",
            role: "developer",
            content: [
              {
                type: "input_text",
                text: "<skills_instructions>\n### Available skills\n- haiku: Writes haiku. (file: /s/haiku/SKILL.md)\n</skills_instructions>",
              },
            ],
          },
          {
            type: "message",
            role: "user",
            content: [
              {
                type: "input_text",
                text: `<environment_context>\n  <cwd>${workOf(run)}</cwd>\n</environment_context>`,
              },
            ],
          },
          { type: "message", role: "user", content: [{ type: "input_text", text: prompt }] },
        ],
      });
    const wire = (run: number) => openaiResponses.read(body(run), { "session-id": `t${run}` });
    expect(wire(4).request.conversation.cwd).toBe(workOf(4));
    expect([2, 1, 3].map((run) => loads(model.reply(wire(run).request)))).toEqual([false, true, true]);
  });

  it("Gemini CLI's workspace directory", () => {
    const model = createSimModel(script);
    const body = (run: number) =>
      JSON.stringify({
        contents: [
          {
            role: "user",
            parts: [
              {
                text: `<session_context>\nThis is the Gemini CLI.\nThe project's temporary directory is: /h${run}/.gemini/tmp/w\n- **Workspace Directories:**\n  - ${workOf(run)}\n</session_context>`,
              },
              { text: prompt },
            ],
          },
        ],
        systemInstruction: {
          role: "user",
          parts: [
            {
              text: "<available_skills>\n  <skill>\n    <name>haiku</name>\n    <description>Writes haiku.</description>\n    <location>/s/haiku/SKILL.md</location>\n  </skill>\n</available_skills>",
            },
          ],
        },
        tools: [{ functionDeclarations: [{ name: "activate_skill" }] }],
      });
    const wire = (run: number) => gemini.read(body(run), {}, "/v1beta/models/skillgym-sim:generateContent");
    expect(wire(4).request.conversation.cwd).toBe(workOf(4));
    expect([2, 1, 3].map((run) => loads(model.reply(wire(run).request)))).toEqual([false, true, true]);
  });
});
