import { describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createSimModel } from "../../src/sim/model.js";
import { openaiChatAgents } from "../../src/sim/protocols/openai-chat-agents.js";

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
