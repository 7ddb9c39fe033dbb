import { describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createSimModel } from "../../src/sim/model.js";
import { openaiResponses, parseSkillsInstructions } from "../../src/sim/protocols/openai-responses.js";

// The shape of Codex CLI 0.169's first request (trimmed): developer context with the skill list, the environment
// context as a user message, then the prompt.
const skillsInstructions = [
  "<skills_instructions>",
  "## Skills",
  "### Skill roots",
  "- `r0` = `/home/run/.codex/skills/.system`",
  "- `r1` = `/w/.agents/skills`",
  "### Available skills",
  "- imagegen: Generate or edit raster images. (file: r0/imagegen/SKILL.md)",
  "- skill-creator: Create or update a Codex skill. (file: r0/skill-creator/SKILL.md)",
  "- haiku-sg-1: Writes haiku poems: short ones (file: r1/haiku-sg-1/SKILL.md)",
  "- limerick: Writes limericks. (file: r1/limerick/SKILL.md)",
  "</skills_instructions>",
].join("\n");

const text = (t: string) => ({ type: "input_text", text: t });

function codexRequest(prompt: string, history: object[] = [], stream = true): string {
  return JSON.stringify({
    model: "skillgym-sim",
    stream,
    tools: [{ type: "function", name: "exec_command" }],
    input: [
      { type: "message", role: "developer", content: [text("You are Codex."), text(skillsInstructions)] },
      {
        type: "message",
        role: "user",
        content: [text("<environment_context>\n  <cwd>/w</cwd>\n</environment_context>")],
      },
      { type: "message", role: "user", content: [text(prompt)] },
      ...history,
    ],
  });
}

const call = (id: string, cmd: string) => ({
  type: "function_call",
  call_id: id,
  name: "exec_command",
  arguments: JSON.stringify({ cmd }),
});
const output = (id: string, out: string) => ({ type: "function_call_output", call_id: id, output: out });

interface Sse {
  type: string;
  [key: string]: unknown;
}
const events = (body: string): Sse[] =>
  body
    .split("\n\n")
    .filter(Boolean)
    .map((chunk) => JSON.parse(chunk.split("\n")[1]!.slice("data: ".length)) as Sse);

function commandsOf(body: string): string[] {
  return events(body).flatMap((e) => {
    const item = e.item as { type?: string; arguments?: string } | undefined;
    return e.type === "response.output_item.done" && item?.type === "function_call"
      ? [(JSON.parse(item.arguments ?? "{}") as { cmd: string }).cmd]
      : [];
  });
}

describe("Codex's skill list", () => {
  it("reads names, descriptions and absolute SKILL.md paths, leaving Codex's .system skills out", () => {
    expect(parseSkillsInstructions(skillsInstructions)).toEqual([
      {
        name: "haiku-sg-1",
        description: "Writes haiku poems: short ones",
        file: "/w/.agents/skills/haiku-sg-1/SKILL.md",
      },
      { name: "limerick", description: "Writes limericks.", file: "/w/.agents/skills/limerick/SKILL.md" },
    ]);
  });

  it("is empty without a skills block", () => {
    expect(parseSkillsInstructions("no skills here")).toEqual([]);
  });
});

describe("the openai-responses protocol with Codex's requests", () => {
  it("reads the prompt past the environment context, the working directory, the session header and the turn", () => {
    const wire = openaiResponses.read(
      codexRequest("Write a haiku", [call("c1", "cat notes.txt"), output("c1", "x")]),
      {
        "session-id": "thread-1",
      },
    );
    expect(wire.request.conversation).toMatchObject({
      prompt: "Write a haiku",
      cwd: "/w",
      turn: 1,
      hasTools: true,
      model: "skillgym-sim",
    });
    expect(wire.request.conversation.skills.map((s) => s.name)).toEqual(["haiku-sg-1", "limerick"]);
    expect(wire.request.session).toBe("thread-1");
  });

  it("counts a text and the tool call after it as one turn", () => {
    const message = {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "Looking." }],
    };
    const wire = openaiResponses.read(codexRequest("p", [message, call("c1", "ls"), output("c1", "")]), {});
    expect(wire.request.conversation.turn).toBe(1);
  });

  it("plays a script's steps as exec_command calls: read, skill by its absolute path, write as apply_patch", () => {
    const model = createSimModel(
      SimScript.parse({
        rules: [
          {
            skill: "~haiku",
            before: [{ read: "notes.txt" }],
            steps: [{ write: { path: "out/poem.txt", content: "old pond\nfrog\n" } }, { text: "Written." }],
          },
        ],
      }),
    );
    const answer = (history: object[]) => {
      const wire = openaiResponses.read(codexRequest("Write a haiku", history), { "session-id": "s" });
      return openaiResponses.write(model.reply(wire.request), wire, 1);
    };
    const first = answer([]);
    expect(first.headers["content-type"]).toBe("text/event-stream");
    expect(commandsOf(first.body)).toEqual(["cat 'notes.txt'"]);
    const second = answer([call("a", "cat notes.txt"), output("a", "notes")]);
    expect(commandsOf(second.body)).toEqual(["cat '/w/.agents/skills/haiku-sg-1/SKILL.md'"]);
    const third = answer([call("a", "x"), output("a", ""), call("b", "y"), output("b", "")]);
    expect(commandsOf(third.body)).toEqual([
      "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: out/poem.txt\n+old pond\n+frog\n*** End Patch\nPATCH\n",
    ]);
    const last = events(
      answer([
        call("a", "x"),
        output("a", ""),
        call("b", "y"),
        output("b", ""),
        call("c", "z"),
        output("c", ""),
      ]).body,
    );
    expect(last.map((e) => e.type)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(last[2]).toMatchObject({ delta: "Written." });
    const usage = (last[4]!.response as { usage: { input_tokens: number; output_tokens: number } }).usage;
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);
  });

  it("writes faults in the Responses API's error shape", () => {
    for (const [status, code] of [
      [429, "rate_limit_exceeded"],
      [529, "server_is_overloaded"],
      [500, "server_error"],
    ] as const) {
      const answer = openaiResponses.error(status);
      expect(answer.status).toBe(status);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code } });
    }
  });

  it("reads a replay's header: a `replayed` rule fits it, and its run number is the header's, not the folder's", () => {
    const model = createSimModel(
      SimScript.parse({
        rules: [
          { match: "^verify", replayed: true, skill: "none", without_skill: [{ text: "No." }] },
          { match: "^verify", skill: "~haiku" },
          { match: "^pattern", skill: "~haiku", trigger_pattern: [true, false] },
        ],
      }),
    );
    const ask = (prompt: string, headers: Record<string, string>) => {
      const wire = openaiResponses.read(codexRequest(prompt), headers);
      return { wire, commands: commandsOf(openaiResponses.write(model.reply(wire.request), wire, 1).body) };
    };
    const replayed = ask("verify a haiku", { "session-id": "r", "x-skillgym-replay": "run-2" });
    expect(replayed.wire.request.conversation.replay).toEqual({ runNumber: 2 });
    expect(replayed.commands).toEqual([]);
    const agent = ask("verify a haiku", { "session-id": "a" });
    expect(agent.wire.request.conversation.replay).toBeUndefined();
    expect(agent.commands).toEqual(["cat '/w/.agents/skills/haiku-sg-1/SKILL.md'"]);
    expect(ask("pattern one", { "session-id": "p1", "x-skillgym-replay": "run-1" }).commands).toHaveLength(1);
    expect(ask("pattern two", { "session-id": "p2", "x-skillgym-replay": "run-2" }).commands).toEqual([]);
  });

  it("refuses a request without input", () => {
    expect(() => openaiResponses.read(JSON.stringify({ model: "m" }), {})).toThrow("input: required");
  });
});
