import { describe, expect, it } from "vitest";
import { SIM_MODEL, SimScript } from "../../src/contracts/sim-script.js";
import { createSimModel, type SimReply } from "../../src/sim/model.js";
import type { ContentBlock } from "../../src/sim/plan.js";
import { openaiChatAgents } from "../../src/sim/protocols/openai-chat-agents.js";
import type { HttpAnswer } from "../../src/sim/protocols/protocol.js";

// The requests' shapes as OpenCode 1.18.33 and Copilot CLI 1.0.102 sent them to a local server (abridged).
const openCodeSystem = [
  "You are opencode, an interactive CLI tool.",
  "<env>\n  Working directory: /w/work\n  Workspace root folder: /\n</env>",
  "<available_skills>",
  "  <skill>\n    <name>customize-opencode</name>\n    <description>Use ONLY when editing opencode config.</description>\n    <location>&lt;built-in&gt;</location>\n  </skill>",
  "  <skill>\n    <name>haiku</name>\n    <description>Writes haiku poems.</description>\n    <location>/w/work/.agents/skills/haiku/SKILL.md</location>\n  </skill>",
  "</available_skills>",
].join("\n");
const copilotSystem = [
  "You are the GitHub Copilot CLI.",
  "* Current working directory: /w/work",
  "<available_skills>\n<skill>\n  <name>haiku</name>\n  <description>Writes haiku poems.</description>\n  <location>project</location>\n</skill>",
  "<skill>\n  <name>github-pr-media</name>\n  <description>Upload an image to a PR.</description>\n  <location>builtin</location>\n</skill>\n</available_skills>",
  "Session folder: /w/home/.copilot/session-state/1f0c",
].join("\n");
const tools = (...names: string[]) => names.map((name) => ({ type: "function", function: { name } }));

function openCodeRequest(messages: object[] = []) {
  return JSON.stringify({
    model: "skillgym-sim",
    stream: true,
    messages: [
      { role: "system", content: openCodeSystem },
      { role: "user", content: "Write a haiku" },
      ...messages,
    ],
    tools: tools("bash", "read", "skill", "write"),
  });
}

function copilotRequest(messages: object[] = []) {
  return JSON.stringify({
    model: "skillgym-sim",
    stream: true,
    messages: [
      { role: "system", content: copilotSystem },
      {
        role: "user",
        content: "<current_datetime>2026-11-26T04:58:13+00:00</current_datetime>\n\nWrite a haiku",
      },
      ...messages,
    ],
    tools: tools("bash", "view", "create", "skill"),
  });
}

// The tool calls of a streamed answer, put together from its chunks.
function streamedCalls(body: string): { id: string; name: string; arguments: Record<string, unknown> }[] {
  const calls: { id: string; name: string; args: string }[] = [];
  for (const data of body.split("\n").filter((l) => l.startsWith("data: {"))) {
    const chunk = JSON.parse(data.slice(6)) as {
      choices: {
        delta: {
          tool_calls?: { index: number; id?: string; function: { name?: string; arguments: string } }[];
        };
      }[];
    };
    for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
      calls[call.index] ??= { id: "", name: "", args: "" };
      const target = calls[call.index]!;
      if (call.id) target.id = call.id;
      if (call.function.name) target.name = call.function.name;
      target.args += call.function.arguments;
    }
  }
  expect(body.trimEnd().endsWith("data: [DONE]")).toBe(true);
  return calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.parse(c.args) }));
}

const script = SimScript.parse({
  rules: [{ skill: "haiku", before: [{ read: "notes.txt" }, { write: { path: "out/a.md", content: "x" } }] }],
});

describe("the Chat Completions wire of OpenCode and Copilot CLI", () => {
  it("reads OpenCode's working folder, skills (not its built-in) and session header", () => {
    const wire = openaiChatAgents.read(openCodeRequest(), { "x-session-id": "ses_1" });
    expect(wire.request.conversation).toMatchObject({
      prompt: "Write a haiku",
      cwd: "/w/work",
      skills: [{ name: "haiku", file: "/w/work/.agents/skills/haiku/SKILL.md" }],
      turn: 0,
      hasTools: true,
    });
    expect(wire.request.session).toBe("ses_1");
  });

  it("reads Copilot CLI's prompt without its datetime, its skills, and its run's session folder as the session", () => {
    const wire = openaiChatAgents.read(copilotRequest(), {});
    expect(wire.request.conversation).toMatchObject({
      prompt: "Write a haiku",
      cwd: "/w/work",
      skills: [{ name: "haiku", description: "Writes haiku poems." }],
    });
    const other = copilotRequest().replace("session-state/1f0c", "session-state/2a9d");
    expect(openaiChatAgents.read(other, {}).request.session).not.toBe(wire.request.session);
  });

  it("writes the plan's steps in OpenCode's own tools", () => {
    const model = createSimModel(script);
    const calls = [0, 1, 2].map((turn) => {
      const assistants = Array.from({ length: turn }, (_, i) => [
        { role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: {} }] },
        { role: "tool", tool_call_id: `c${i}`, content: "ok" },
      ]).flat();
      const wire = openaiChatAgents.read(openCodeRequest(assistants), { "x-session-id": "ses_2" });
      return streamedCalls(openaiChatAgents.write(model.reply(wire.request), wire, turn + 1).body)[0];
    });
    expect(calls.map((c) => [c?.name, c?.arguments])).toEqual([
      ["read", { filePath: "/w/work/notes.txt" }],
      ["write", { filePath: "/w/work/out/a.md", content: "x" }],
      ["skill", { name: "haiku" }],
    ]);
  });

  it("makes the folder of a Copilot CLI write in a turn of its own, which is not one of the plan's turns", () => {
    const model = createSimModel(script);
    const history: object[] = [];
    const names: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const wire = openaiChatAgents.read(copilotRequest(history), {});
      const [call] = streamedCalls(openaiChatAgents.write(model.reply(wire.request), wire, n).body);
      if (!call) break;
      names.push(`${call.name} ${JSON.stringify(call.arguments)}`);
      history.push(
        { role: "assistant", content: null, tool_calls: [{ id: call.id, type: "function", function: {} }] },
        { role: "tool", tool_call_id: call.id, content: "ok" },
      );
    }
    expect(names).toEqual([
      'view {"path":"/w/work/notes.txt"}',
      `bash {"command":"mkdir -p '/w/work/out'","description":"Create the folder"}`,
      'create {"path":"/w/work/out/a.md","file_text":"x"}',
      'skill {"skill":"haiku"}',
    ]);
  });

  it("answers a fault with retry-after 0, so the agent's own retries end at once", () => {
    const answer = openaiChatAgents.error(529);
    expect(answer.status).toBe(529);
    expect(answer.headers).toMatchObject({ "retry-after": "0", "retry-after-ms": "0" });
  });
});

// Qwen Code 0.24.4's request (abridged): its folder and its skills are in reminders of the first user message.
const qwenReminder = [
  "<system-reminder>\nThe following skills are available for use with the Skill tool.\n\n<available_skills>",
  "<skill>\n<name>\nbatch\n</name>\n<description>\nExecute batch operations. (bundled)\n</description>\n<location>\nbundled\n</location>\n</skill>",
  "<skill>\n<name>\nhaiku\n</name>\n<description>\nWrites haiku poems. (project)\n</description>\n<location>\nproject\n</location>\n</skill>",
  "</available_skills>\n</system-reminder>",
].join("\n");

function qwenRequest(cwd: string, messages: object[] = []) {
  return JSON.stringify({
    model: "skillgym-sim",
    stream: true,
    messages: [
      { role: "system", content: "You are Qwen Code, an interactive CLI agent." },
      {
        role: "user",
        content: [
          {
            type: "text",
            text: `<system-reminder>\nI'm currently working in the directory: ${cwd}\n</system-reminder>`,
          },
          { type: "text", text: qwenReminder },
          { type: "text", text: "Write a haiku" },
        ],
      },
      ...messages,
    ],
    tools: tools("read_file", "write_file", "run_shell_command", "skill", "glob"),
  });
}

describe("the Chat Completions wire of Qwen Code", () => {
  it("reads its folder and its skills (not its bundled ones) from its first user message, its folder as the session", () => {
    const wire = openaiChatAgents.read(qwenRequest("/w/run-1/work"), {});
    expect(wire.request.conversation).toMatchObject({
      prompt: "Write a haiku",
      cwd: "/w/run-1/work",
      skills: [{ name: "haiku", description: "Writes haiku poems." }],
    });
    const other = openaiChatAgents.read(qwenRequest("/w/run-2/work"), {});
    expect(other.request.session).not.toBe(wire.request.session);
  });

  it("writes the plan's steps in Qwen Code's own tools, a plain sleep marked as meant", () => {
    const model = createSimModel(
      SimScript.parse({
        rules: [
          {
            skill: "haiku",
            before: [
              { read: "notes.txt" },
              { write: { path: "out/a.md", content: "x" } },
              { bash: "sleep 45" },
            ],
          },
        ],
      }),
    );
    const history: object[] = [];
    const calls: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const wire = openaiChatAgents.read(qwenRequest("/w/work", history), {});
      const [call] = streamedCalls(openaiChatAgents.write(model.reply(wire.request), wire, n).body);
      if (!call) break;
      calls.push(`${call.name} ${JSON.stringify(call.arguments)}`);
      history.push(
        { role: "assistant", content: null, tool_calls: [{ id: call.id, type: "function", function: {} }] },
        { role: "tool", tool_call_id: call.id, content: "ok" },
      );
    }
    expect(calls).toEqual([
      'read_file {"file_path":"/w/work/notes.txt"}',
      'write_file {"file_path":"/w/work/out/a.md","content":"x"}',
      'run_shell_command {"command":"sleep 45 # intentional-sleep: a scripted wait","description":"Scripted step"}',
      'skill {"skill":"haiku"}',
    ]);
  });
});

// Every data chunk of a streamed answer, parsed.
function chunksOf(body: string): Record<string, unknown>[] {
  expect(body.endsWith("data: [DONE]\n\n")).toBe(true);
  return body
    .split("\n\n")
    .filter((event) => event.startsWith("data: {"))
    .map((event) => JSON.parse(event.slice(6)) as Record<string, unknown>);
}

const turnReply = (...content: ContentBlock[]): SimReply => ({
  kind: "turn",
  action: "scripted",
  latencyMs: 0,
  content,
  outputTokens: 5,
});
const text = (t: string): ContentBlock => ({ type: "text", text: t });
const read = (path: string): ContentBlock => ({
  type: "tool_use",
  id: "toolu_a",
  name: "Read",
  input: { file_path: path },
});

function request(options: { stream?: boolean; model?: string; messages?: object[]; tools?: object[] } = {}) {
  return JSON.stringify({
    ...(options.model === undefined ? {} : { model: options.model }),
    stream: options.stream ?? true,
    messages: options.messages ?? [
      { role: "system", content: openCodeSystem },
      { role: "user", content: "Write a haiku" },
    ],
    tools: options.tools ?? tools("bash", "read", "skill", "write"),
  });
}

describe("the answers of the Chat Completions agents' wire", () => {
  // The seconds since the epoch an answer made now may say it was created at.
  function createdNow(make: () => HttpAnswer): { answer: HttpAnswer; created: number[] } {
    const before = Math.floor(Date.now() / 1000);
    const answer = make();
    const after = Math.floor(Date.now() / 1000);
    return { answer, created: Array.from({ length: after - before + 1 }, (_, i) => before + i) };
  }

  it("streams a text turn as OpenAI does: the role, the text, the finish, the usage, then [DONE]", () => {
    const wire = openaiChatAgents.read(request({ model: "gpt-4.1" }), {});
    const { answer, created } = createdNow(() => openaiChatAgents.write(turnReply(text("Hello")), wire, 3));
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({ "content-type": "text/event-stream", "cache-control": "no-cache" });
    const chunks = chunksOf(answer.body);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({
        id: "chatcmpl-sim-3",
        object: "chat.completion.chunk",
        model: "gpt-4.1",
      });
      expect(created).toContain(chunk.created);
    }
    expect(chunks.map(({ choices, usage }) => ({ choices, usage }))).toEqual([
      { choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: "Hello" }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
      {
        choices: [],
        usage: { prompt_tokens: wire.inputTokens, completion_tokens: 5, total_tokens: wire.inputTokens + 5 },
      },
    ]);
  });

  it("streams a tool call as its name, then its arguments, and finishes with tool_calls", () => {
    const wire = openaiChatAgents.read(request(), {});
    const chunks = chunksOf(openaiChatAgents.write(turnReply(read("/w/work/notes.txt")), wire, 1).body);
    expect(chunks.map((c) => c.choices)).toEqual([
      [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
      [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 0, id: "toolu_a", type: "function", function: { name: "read", arguments: "" } },
            ],
          },
          finish_reason: null,
        },
      ],
      [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { arguments: '{"filePath":"/w/work/notes.txt"}' } }] },
          finish_reason: null,
        },
      ],
      [{ index: 0, delta: {}, finish_reason: "tool_calls" }],
      [],
    ]);
  });

  it("answers a request that does not stream with one chat.completion naming the model asked for", () => {
    const wire = openaiChatAgents.read(request({ stream: false, model: "gpt-4.1" }), {});
    const { answer, created } = createdNow(() => openaiChatAgents.write(turnReply(text("Hello")), wire, 4));
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    expect(created).toContain(body.created);
    expect(body).toEqual({
      id: "chatcmpl-sim-4",
      object: "chat.completion",
      created: body.created,
      model: "gpt-4.1",
      choices: [{ index: 0, message: { role: "assistant", content: "Hello" }, finish_reason: "stop" }],
      usage: { prompt_tokens: wire.inputTokens, completion_tokens: 5, total_tokens: wire.inputTokens + 5 },
    });
  });

  it("answers as the simulator's model when the request names none", () => {
    const wire = openaiChatAgents.read(request({ stream: false }), {});
    const body = JSON.parse(openaiChatAgents.write(turnReply(text("Hello")), wire, 1).body) as {
      model: string;
    };
    expect(body.model).toBe(SIM_MODEL);
  });

  it.each([
    ["text only", [text("Hello")], { content: "Hello" }, "stop"],
    [
      "texts and a call",
      [text("Reading."), text("The notes first."), read("/w/work/notes.txt")],
      {
        content: "Reading.\n\nThe notes first.",
        tool_calls: [
          {
            id: "toolu_a",
            type: "function",
            function: { name: "read", arguments: '{"filePath":"/w/work/notes.txt"}' },
          },
        ],
      },
      "tool_calls",
    ],
    [
      "a call only",
      [read("/w/work/notes.txt")],
      {
        content: null,
        tool_calls: [
          {
            id: "toolu_a",
            type: "function",
            function: { name: "read", arguments: '{"filePath":"/w/work/notes.txt"}' },
          },
        ],
      },
      "tool_calls",
    ],
    ["nothing", [], { content: "" }, "stop"],
  ] as const)(
    "writes a turn of %s as the message's content and tool calls",
    (_, content, message, finish) => {
      const wire = openaiChatAgents.read(request({ stream: false }), {});
      const body = JSON.parse(openaiChatAgents.write(turnReply(...content), wire, 1).body) as {
        choices: { message: object; finish_reason: string }[];
      };
      expect(body.choices).toEqual([
        { index: 0, message: { role: "assistant", ...message }, finish_reason: finish },
      ]);
      if (message.content) {
        const streamed = openaiChatAgents.read(request(), {});
        const chunks = chunksOf(openaiChatAgents.write(turnReply(...content), streamed, 1).body);
        expect(chunks.flatMap((c) => c.choices)).toContainEqual({
          index: 0,
          delta: { content: message.content },
          finish_reason: null,
        });
      }
    },
  );

  it("keeps a Copilot CLI turn's text for the write that follows its folder-making turn", () => {
    const write: ContentBlock = {
      type: "tool_use",
      id: "toolu_w",
      name: "Write",
      input: { file_path: "/w/work/out/a.md", content: "x" },
    };
    const ask = (history: object[], content: ContentBlock[]) => {
      const wire = openaiChatAgents.read(
        copilotRequest(history).replace('"stream":true', '"stream":false'),
        {},
      );
      return (
        JSON.parse(openaiChatAgents.write(turnReply(...content), wire, 1).body) as {
          choices: {
            message: { content: string | null; tool_calls: { id: string; function: { name: string } }[] };
          }[];
        }
      ).choices[0]!.message;
    };
    const folderTurn = ask([], [text("Saving the haiku."), write]);
    expect(folderTurn.content).toBeNull();
    expect(folderTurn.tool_calls.map((c) => [c.id, c.function.name])).toEqual([
      ["skillgym_mkdir_toolu_w", "bash"],
    ]);
    // A turn whose calls are not all folder-making ones is as quiet: its text waits for the write.
    expect(ask([], [text("Saving the haiku."), write, read("/w/work/notes.txt")]).content).toBeNull();
    const history = [
      { role: "assistant", content: null, tool_calls: [{ id: "skillgym_mkdir_toolu_w", type: "function" }] },
      { role: "tool", tool_call_id: "skillgym_mkdir_toolu_w", content: "" },
    ];
    const writeTurn = ask(history, [text("Saving the haiku."), write]);
    expect(writeTurn.content).toBe("Saving the haiku.");
    expect(writeTurn.tool_calls.map((c) => c.function.name)).toEqual(["create"]);
  });

  it.each([
    [429, "rate_limit_exceeded"],
    [529, "overloaded"],
    [500, "server_error"],
  ])("answers a simulated %i as OpenAI's %s error", (status, type) => {
    const answer = openaiChatAgents.error(status);
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.body)).toEqual({
      error: { message: `Simulated ${status} (${type}) from skillgym sim`, type, code: status },
    });
  });
});

describe("reading a request of the Chat Completions agents' wire", () => {
  it("refuses a request without messages", () => {
    expect(() => openaiChatAgents.read(JSON.stringify({ model: "m" }), {})).toThrow(
      "messages: required, an array",
    );
  });

  it("reads a developer message as the system prompt: its folder, its skills, and the judge's text", () => {
    const wire = openaiChatAgents.read(
      request({
        messages: [
          { role: "developer", content: openCodeSystem },
          { role: "user", content: "Write a haiku" },
          { role: "assistant", content: "On it." },
        ],
      }),
      {},
    );
    expect(wire.request.conversation).toMatchObject({
      prompt: "Write a haiku",
      cwd: "/w/work",
      skills: [{ name: "haiku" }],
      turn: 1,
    });
    expect(wire.request.judgeText).toBe(`${openCodeSystem}\nWrite a haiku`);
  });

  it("reads the prompt from the text parts of the first user message that has text", () => {
    const wire = openaiChatAgents.read(
      request({
        messages: [
          { role: "system", content: openCodeSystem },
          { role: "user", content: null },
          {
            role: "user",
            content: [
              { type: "image_url", image_url: { url: "data:image/png;base64,AA==" } },
              { type: "text", text: "Write a haiku" },
            ],
          },
        ],
      }),
      {},
    );
    expect(wire.request.conversation.prompt).toBe("Write a haiku");
    expect(wire.request.judgeText).toBe(`${openCodeSystem}\nWrite a haiku`);
  });

  it.each([
    ["a text-only answer", 1, { role: "assistant", content: "Thinking." }],
    ["an answer with an empty list of calls", 1, { role: "assistant", content: "Thinking.", tool_calls: [] }],
    [
      "an answer that makes a folder and reads",
      1,
      { role: "assistant", content: null, tool_calls: [{ id: "skillgym_mkdir_a" }, { id: "call_b" }] },
    ],
    [
      "the simulator's own folder-making call",
      0,
      { role: "assistant", content: null, tool_calls: [{ id: "skillgym_mkdir_a" }] },
    ],
  ])("counts %s as %i of the plan's turns", (_, turns, message) => {
    const wire = openaiChatAgents.read(
      request({
        messages: [
          { role: "system", content: openCodeSystem },
          { role: "user", content: "Write a haiku" },
          message,
        ],
      }),
      {},
    );
    expect(wire.request.conversation.turn).toBe(turns);
    expect(wire.request.conversation.prompt).toBe("Write a haiku");
  });

  it("reads a user message as the user's, whatever calls it carries", () => {
    const wire = openaiChatAgents.read(
      request({
        messages: [
          { role: "system", content: openCodeSystem },
          { role: "user", content: "Write a haiku", tool_calls: [{ id: "skillgym_mkdir_a" }] },
        ],
      }),
      {},
    );
    expect(wire.request.conversation.prompt).toBe("Write a haiku");
  });

  it("takes the folder only from the user's texts, never from the model's own words", () => {
    const wire = openaiChatAgents.read(
      request({
        messages: [
          { role: "system", content: "You are an agent." },
          { role: "user", content: "Write a haiku" },
          { role: "assistant", content: "Working directory: /tmp/elsewhere" },
        ],
      }),
      {},
    );
    expect(wire.request.conversation.cwd).toBeUndefined();
  });

  it("keeps the word break between two texts that continue one skill list", () => {
    const parts = [
      "<available_skills><skill><name>haiku</name><description>Writes haiku",
      "poems.</description></skill></available_skills>",
    ];
    const inSystem = openaiChatAgents.read(
      request({
        messages: [
          ...parts.map((content) => ({ role: "system", content })),
          { role: "user", content: "Write a haiku" },
        ],
      }),
      {},
    );
    const inUser = openaiChatAgents.read(
      request({
        messages: [
          { role: "system", content: "You are Qwen Code." },
          { role: "user", content: [...parts, "Write a haiku"].map((t) => ({ type: "text", text: t })) },
        ],
      }),
      {},
    );
    for (const wire of [inSystem, inUser]) {
      expect(wire.request.conversation.skills).toEqual([
        { name: "haiku", description: "Writes haiku\npoems." },
      ]);
    }
  });

  it("gives a side request offering no tools (a title) a short plain answer", () => {
    const wire = openaiChatAgents.read(request({ stream: false, tools: [] }), {});
    expect(wire.request.conversation.hasTools).toBe(false);
    const reply = createSimModel(script).reply(wire.request);
    const body = JSON.parse(openaiChatAgents.write(reply, wire, 1).body) as {
      choices: { message: { content: string }; finish_reason: string }[];
    };
    expect(body.choices[0]).toMatchObject({
      message: { content: "Simulated answer." },
      finish_reason: "stop",
    });
  });
});
