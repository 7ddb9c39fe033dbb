import { afterEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { SIM_MODEL } from "../../src/sim/encode.js";
import { createSimModel } from "../../src/sim/model.js";
import {
  commandFor,
  openaiResponses,
  parseSkillsInstructions,
} from "../../src/sim/protocols/openai-responses.js";
import { type SimServer, startSim } from "../../src/sim/server.js";

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

function codexRequest(
  prompt: string,
  history: object[] = [],
  { stream = true, cwd = "/w" }: { stream?: boolean; cwd?: string } = {},
): string {
  return JSON.stringify({
    model: "skillgym-sim",
    stream,
    tools: [{ type: "function", name: "exec_command" }],
    input: [
      { type: "message", role: "developer", content: [text("You are Codex."), text(skillsInstructions)] },
      {
        type: "message",
        role: "user",
        content: [text(`<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>`)],
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
/** The events of a stream, each `event: <type>` and `data: <json of that type>`, every one ended by a blank line. */
function events(body: string): Sse[] {
  expect(body.endsWith("\n\n")).toBe(true);
  return body
    .slice(0, -2)
    .split("\n\n")
    .map((chunk) => {
      const [, name, data] = /^event: (\S+)\ndata: (.*)$/.exec(chunk) ?? [];
      const event = JSON.parse(data ?? "null") as Sse;
      expect(event.type).toBe(name);
      return event;
    });
}

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

  it("reads only the block's lines, and only lines shaped as Codex writes them", () => {
    const listing = [
      "- before: Listed before the block. (file: /x/before/SKILL.md)",
      "<skills_instructions>",
      "- `r1` = `/w/.agents/skills`",
      "- `r2` = `/w/.systems`",
      "  - `r1` = `/elsewhere`",
      "- `r3` = `/w/other` (old)",
      "- kept: Kept. (file: r1/kept/SKILL.md)",
      "- other: Under a root line that is not one. (file: r3/other/SKILL.md)",
      "  - indented: Not a skill line. (file: r1/indented/SKILL.md)",
      "- trailing: Not a skill line. (file: r1/trailing/SKILL.md) and more",
      "- sys: Under a root that only begins with .system. (file: r2/sys/SKILL.md)",
      "</skills_instructions>",
      "- after: Listed after the block. (file: /x/after/SKILL.md)",
    ].join("\n");
    expect(parseSkillsInstructions(listing)).toEqual([
      { name: "kept", description: "Kept.", file: "/w/.agents/skills/kept/SKILL.md" },
      { name: "other", description: "Under a root line that is not one." },
      {
        name: "sys",
        description: "Under a root that only begins with .system.",
        file: "/w/.systems/sys/SKILL.md",
      },
    ]);
  });

  it("reads a block that is never closed to the end", () => {
    const listing = "<skills_instructions>\n- `r1` = `/w`\n- last: The last line. (file: r1/last/SKILL.md)";
    expect(parseSkillsInstructions(listing)).toEqual([
      { name: "last", description: "The last line.", file: "/w/last/SKILL.md" },
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
    for (const [status, code, type] of [
      [429, "rate_limit_exceeded", "requests"],
      [529, "server_is_overloaded", "server_error"],
      [500, "server_error", "server_error"],
    ] as const) {
      const answer = openaiResponses.error(status);
      expect(answer.status).toBe(status);
      expect(JSON.parse(answer.body)).toEqual({
        error: { message: `Simulated ${status} (${code}) from skillgym sim`, type, param: null, code },
      });
    }
  });

  it("gives a judge the instructions and the prompt, one a line, and nothing else", () => {
    const input = [{ role: "user", content: "Grade this run." }];
    const read = (request: object) => openaiResponses.read(JSON.stringify(request), {}).request.judgeText;
    expect(read({ instructions: "You grade runs.", input })).toBe("You grade runs.\nGrade this run.");
    expect(read({ input })).toBe("Grade this run.");
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
    const unnumbered = ask("verify a haiku", { "session-id": "r0", "x-skillgym-replay": "yes" });
    expect(unnumbered.wire.request.conversation.replay).toStrictEqual({});
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

describe("the shell command Codex runs for a scripted tool call", () => {
  it("echoes that a tool Codex has no command for is unsupported", () => {
    const conversation = { prompt: "p", cwd: "/w", skills: [], turn: 0, hasTools: true, model: "m" };
    const block = { type: "tool_use" as const, id: "t1", name: "Glob", input: { pattern: "*.md" } };
    expect(commandFor(block, conversation)).toBe("echo 'unsupported simulated tool Glob'");
  });
});

describe("the sim server's /v1/responses endpoint", () => {
  let sim: SimServer | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  async function serve(script: unknown = {}): Promise<SimServer> {
    sim = await startSim({ script: SimScript.parse(script) });
    return sim;
  }

  const postResponses = (url: string, body: string, session = "s") =>
    fetch(`${url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", "session-id": session },
      body,
    });

  /** The commands of the answer's exec_command calls. */
  async function commands(url: string, body: string, session?: string): Promise<string[]> {
    const response = await postResponses(url, body, session);
    expect(response.status).toBe(200);
    return commandsOf(await response.text());
  }

  interface Usage {
    input_tokens: number;
    output_tokens: number;
    total_tokens: number;
  }

  it("streams a turn as the Responses API's numbered events: its texts as one message, then its tool call", async () => {
    const { url } = await serve({
      rules: [
        { skill: "~haiku", before: [{ text: "Let me see." }, { text: "Reading." }, { read: "notes.txt" }] },
      ],
    });
    const before = Math.floor(Date.now() / 1000);
    const response = await postResponses(url, codexRequest("Write a haiku"), "s1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const stream = events(await response.text());
    const after = Math.floor(Date.now() / 1000);

    expect(stream.map((e) => [e.sequence_number, e.type])).toEqual([
      [0, "response.created"],
      [1, "response.output_item.added"],
      [2, "response.output_text.delta"],
      [3, "response.output_item.done"],
      [4, "response.output_item.added"],
      [5, "response.output_item.done"],
      [6, "response.completed"],
    ]);
    const message = {
      type: "message",
      id: "msg_sim_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "Let me see.\n\nReading.", annotations: [] }],
    };
    const call = {
      type: "function_call",
      id: "fc_toolu_s1_0",
      call_id: "toolu_s1_0",
      name: "exec_command",
      arguments: JSON.stringify({ cmd: "cat 'notes.txt'" }),
      status: "completed",
    };
    const created = stream[0]!.response as { created_at: number };
    expect(created).toEqual({
      id: "resp_sim_1",
      object: "response",
      created_at: created.created_at,
      status: "in_progress",
      model: SIM_MODEL,
      output: [],
    });
    expect(created.created_at).toBeGreaterThanOrEqual(before);
    expect(created.created_at).toBeLessThanOrEqual(after);
    expect(stream.slice(1, 6)).toEqual([
      {
        type: "response.output_item.added",
        sequence_number: 1,
        output_index: 0,
        item: { ...message, status: "in_progress", content: [] },
      },
      {
        type: "response.output_text.delta",
        sequence_number: 2,
        output_index: 0,
        content_index: 0,
        item_id: "msg_sim_1",
        delta: "Let me see.\n\nReading.",
      },
      { type: "response.output_item.done", sequence_number: 3, output_index: 0, item: message },
      {
        type: "response.output_item.added",
        sequence_number: 4,
        output_index: 1,
        item: { ...call, status: "in_progress" },
      },
      { type: "response.output_item.done", sequence_number: 5, output_index: 1, item: call },
    ]);
    const completed = stream[6]!.response as { usage: Usage };
    expect(completed).toEqual({
      id: "resp_sim_1",
      object: "response",
      created_at: expect.any(Number),
      status: "completed",
      model: SIM_MODEL,
      output: [message, call],
      usage: {
        input_tokens: expect.any(Number),
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: expect.any(Number),
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: completed.usage.input_tokens + completed.usage.output_tokens,
      },
    });
    expect(completed.usage.input_tokens).toBeGreaterThan(0);
    expect(completed.usage.output_tokens).toBeGreaterThan(0);
  });

  it("answers a request that does not stream with the whole response as JSON, a turn of only a tool call as only that call", async () => {
    const { url } = await serve({ rules: [{ skill: "~haiku", before: [{ bash: "ls" }] }] });
    const response = await postResponses(url, codexRequest("Write a haiku", [], { stream: false }), "s1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = (await response.json()) as { usage: Usage };
    expect(body).toMatchObject({
      id: "resp_sim_1",
      object: "response",
      status: "completed",
      model: SIM_MODEL,
      output: [{ type: "function_call", call_id: "toolu_s1_0", arguments: JSON.stringify({ cmd: "ls" }) }],
    });
    expect(body.usage.total_tokens).toBe(body.usage.input_tokens + body.usage.output_tokens);
  });

  it("gives a request without tools (a title, a summary) a plain answer", async () => {
    const { url } = await serve({ rules: [{ skill: "~haiku" }] });
    const request = JSON.parse(codexRequest("Write a haiku", [], { stream: false })) as object;
    const response = await postResponses(url, JSON.stringify({ ...request, tools: [] }));
    const body = (await response.json()) as { output: { content: { text: string }[] }[] };
    expect(body.output.map((item) => item.content[0]!.text)).toEqual(["Simulated answer."]);
    expect(sim!.log.map((e) => e.action)).toEqual(["response"]);
  });

  const user = (...texts: string[]) => ({ type: "message", role: "user", content: texts.map(text) });
  const customCall = (id: string) => ({
    type: "custom_tool_call",
    call_id: id,
    name: "apply_patch",
    input: "x",
  });
  it.each([
    { name: "a string input is the prompt", input: "Write a haiku", prompt: "Write a haiku", turn: 0 },
    {
      name: "an item without a type is a message",
      input: [{ role: "user", content: "Write a haiku" }],
      prompt: "Write a haiku",
      turn: 0,
    },
    {
      name: "items that are no objects are skipped, and split no turn",
      input: [user("Write a haiku"), call("a", "ls"), null, "stray", [], call("b", "pwd"), output("a", "")],
      prompt: "Write a haiku",
      turn: 1,
    },
    {
      name: "a message without content, and parts without text, add no words",
      input: [
        { type: "message", role: "user" },
        { type: "message", role: "user", content: [{ type: "input_image" }, null, text("Write a haiku")] },
      ],
      prompt: "Write a haiku",
      turn: 0,
    },
    {
      name: "system and developer messages are no prompt",
      input: [
        { type: "message", role: "system", content: [text("Be terse.")] },
        { type: "message", role: "developer", content: [text("Use the shell.")] },
        user("Write a haiku"),
      ],
      prompt: "Write a haiku",
      turn: 0,
    },
    {
      name: "Codex's context is no prompt, even after blank lines",
      input: [user("\n  <environment_context><cwd>/w</cwd></environment_context>"), user("Write a haiku")],
      prompt: "Write a haiku",
      turn: 0,
    },
    {
      name: "an assistant message is a turn of its own",
      input: [
        user("Write a haiku"),
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Which season?" }] },
        user("Autumn."),
      ],
      prompt: "Write a haiku",
      turn: 1,
    },
    {
      name: "an apply_patch call's output closes its turn",
      input: [
        user("Write a haiku"),
        customCall("a"),
        { type: "custom_tool_call_output", call_id: "a", output: "Done." },
        customCall("b"),
        { type: "custom_tool_call_output", call_id: "b", output: "Done." },
      ],
      prompt: "Write a haiku",
      turn: 2,
    },
    {
      name: "a tool's output is the user's words",
      input: [call("a", "cat task.txt"), output("a", "Write a haiku")],
      prompt: "Write a haiku",
      turn: 1,
    },
    {
      name: "a tool's output in parts is their lines",
      input: [
        call("a", "cat task.txt"),
        { type: "function_call_output", call_id: "a", output: [text("Write"), text("a haiku")] },
      ],
      prompt: "Write\na haiku",
      turn: 1,
    },
  ])("reads Codex's input items: $name", async ({ input, prompt, turn }) => {
    const { url } = await serve();
    const body = JSON.stringify({ model: "m", tools: [{ type: "function", name: "exec_command" }], input });
    expect((await postResponses(url, body)).status).toBe(200);
    expect(sim!.log.map((e) => ({ prompt: e.prompt, turn: e.turn }))).toEqual([{ prompt, turn }]);
  });

  it("runs each scripted step as the command Codex would: paths shown from the working directory, quoted, written as patches", async () => {
    const { url } = await serve({
      rules: [
        {
          skill: "~haiku",
          before: [
            { read: "/etc/hosts" },
            { read: "/w/notes.txt" },
            { read: "." },
            { read: "it's.txt" },
            { skill: "ghost" },
            { write: { path: "a.txt", content: "one\ntwo" } },
            { write: { path: "b.txt", content: "PATCH\n" } },
            { write: { path: "c.txt", content: "" } },
          ],
        },
      ],
    });
    const patch = (marker: string, path: string, body: string) =>
      `apply_patch <<'${marker}'\n*** Begin Patch\n*** Add File: ${path}\n${body}*** End Patch\n${marker}\n`;
    const expected = [
      "cat '/etc/hosts'",
      "cat 'notes.txt'",
      "cat '/w'",
      "cat 'it'\\''s.txt'",
      "cat '.agents/skills/ghost/SKILL.md'",
      patch("PATCH", "a.txt", "+one\n+two\n"),
      patch("PATCH_", "b.txt", "+PATCH\n"),
      patch("PATCH", "c.txt", ""),
    ];
    for (const [turn, command] of expected.entries()) {
      const history = Array.from({ length: turn }, (_, i) => [
        call(`c${i}`, "x"),
        output(`c${i}`, ""),
      ]).flat();
      const body = codexRequest("Write a haiku", history, { cwd: " /w " });
      expect(await commands(url, body, "s1")).toEqual([command]);
    }
  });

  it("finds the skill list and the working directory in the instructions too", async () => {
    const { url } = await serve({ rules: [{ skill: "~haiku" }] });
    const body = JSON.stringify({
      model: "skillgym-sim",
      instructions: `You are Codex.\n${skillsInstructions}\n<cwd>/w</cwd>`,
      tools: [{ type: "function", name: "exec_command" }],
      input: "Write a haiku",
      stream: true,
    });
    expect(await commands(url, body)).toEqual(["cat '/w/.agents/skills/haiku-sg-1/SKILL.md'"]);
  });
});
