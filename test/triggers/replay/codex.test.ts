import { describe, expect, it } from "vitest";
import { createCodexParser } from "../../../src/agents/codex/parse-stream.js";
import { SIM_MODEL } from "../../../src/contracts/sim-model.js";
import type { SimReply } from "../../../src/sim/model.js";
import { openaiResponses } from "../../../src/sim/protocols/openai-responses.js";
import { codexReplay, commandOfCall } from "../../../src/triggers/replay/codex.js";
import { classifyFirstTurn, type FirstTurn } from "../../../src/triggers/replay/first-turn.js";
import { readOpenAiTurn } from "../../../src/triggers/replay/openai-turn.js";
import type { RecordedRequest } from "../../../src/triggers/replay/recording-proxy.js";

const MARKER = "SKILLGYMREPLAYQUERY0123456789abcdef";
const OURS = "haiku-sg-1a2b3c4d";
const text = (t: string) => ({ type: "input_text", text: t });
const post = (path: string, body: object): RecordedRequest => ({
  method: "POST",
  path,
  headers: {},
  body: JSON.stringify(body),
});

// Codex 0.169's first request, trimmed: to the simulator's provider (the tools in `tools`), and to OpenAI's own
// provider (the tools as an `additional_tools` item of the input).
const skillsInstructions = [
  "<skills_instructions>",
  "### Skill roots",
  "- `r1` = `/w/.agents/skills`",
  "### Available skills",
  `- ${OURS}: Writes a haiku. (file: r1/${OURS}/SKILL.md)`,
  "- limerick: Writes limericks. (file: r1/limerick/SKILL.md)",
  "</skills_instructions>",
].join("\n");
const input = (prompt: string) => [
  { type: "message", role: "developer", content: [text("You are Codex."), text(skillsInstructions)] },
  {
    type: "message",
    role: "user",
    content: [text("<environment_context>\n  <cwd>/w</cwd>\n</environment_context>")],
  },
  { type: "message", role: "user", content: [text(prompt)] },
];
const simShaped = (prompt: string) => ({
  model: SIM_MODEL,
  stream: true,
  input: input(prompt),
  tools: [{ type: "function", name: "exec_command" }],
  prompt_cache_key: "thread-1",
});
const openaiShaped = (prompt: string) => ({
  model: "gpt-6.1-sol",
  stream: true,
  input: [
    {
      type: "additional_tools",
      role: "developer",
      tools: [{ type: "namespace", name: "functions", tools: [{ type: "custom", name: "exec" }] }],
    },
    ...input(prompt),
  ],
});

describe("Codex's first real model request", () => {
  const side: RecordedRequest[] = [
    { method: "GET", path: "/v1/models", headers: {}, body: "" },
    // The WebSocket Codex tries first on OpenAI's provider: a GET that upgrades, no body.
    { method: "GET", path: "/responses", headers: { upgrade: "websocket" }, body: "" },
    post("/v1/responses/compact", simShaped(MARKER)),
    // A request with the query but no tools: a side request, whatever it is for.
    post("/v1/responses", { model: SIM_MODEL, input: input(`Title this: ${MARKER}`) }),
    post("/v1/responses", simShaped("quota")),
  ];

  it("is the Responses call with tools and the marker, not a model list, a WebSocket, a compaction or a side call", () => {
    const real = post("/v1/responses", simShaped(MARKER));
    const recorded = [...side, real, post("/v1/responses", simShaped(MARKER))];
    expect(recorded.find((r) => codexReplay.isFirstRequest(r, MARKER))).toBe(real);
  });

  it("finds the tools OpenAI's provider sends as an input item", () => {
    const real = post("/responses", openaiShaped(MARKER));
    expect([...side, real].find((r) => codexReplay.isFirstRequest(r, MARKER))).toBe(real);
    const { input: items, ...rest } = openaiShaped(MARKER);
    expect(codexReplay.isFirstRequest(post("/responses", { ...rest, input: items.slice(1) }), MARKER)).toBe(
      false,
    );
  });

  it("is none when no request with tools carries the marker", () => {
    expect(side.some((r) => codexReplay.isFirstRequest(r, MARKER))).toBe(false);
    expect(
      codexReplay.isFirstRequest(
        post("/v1/responses", simShaped(MARKER)),
        "SKILLGYMREPLAYQUERYffffffffffffffff",
      ),
    ).toBe(false);
    expect(
      codexReplay.isFirstRequest({ ...post("/v1/responses", {}), body: `{"input": "${MARKER}` }, MARKER),
    ).toBe(false);
  });
});

describe("a replay's headers", () => {
  it("drop the key and every header naming Codex's thread or turn, and bring a thread of its own each time", () => {
    for (const name of [
      "authorization",
      "session-id",
      "thread-id",
      "x-client-request-id",
      "x-codex-window-id",
      "x-codex-turn-metadata",
    ])
      expect(codexReplay.droppedHeaders).toContain(name);
    expect(codexReplay.droppedHeaders).not.toContain("originator");
    const first = codexReplay.replayHeaders("sk-test");
    const second = codexReplay.replayHeaders("sk-test");
    expect(first.authorization).toBe("Bearer sk-test");
    expect(first["session-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(first["session-id"]).not.toBe(second["session-id"]);
    expect(first["x-codex-window-id"]).toBe(`${first["thread-id"]}:0`);
  });
});

const exec = (cmd: string) => ({ name: "exec_command", input: { cmd } });

// What the agent's own stream parser says the same command loads: Codex reports it wrapped in `bash -lc`.
function agentLoads(command: string): string | undefined {
  const wrapped = `/bin/bash -lc '${command.replace(/'/g, `'\\''`)}'`;
  const events = createCodexParser()(
    JSON.stringify({ type: "item.started", item: { id: "i1", type: "command_execution", command: wrapped } }),
  );
  const load = events.find((e) => e.kind === "skill_load");
  return load?.kind === "skill_load" ? load.skill : undefined;
}

describe("the skill a call of Codex's loads", () => {
  const commands = [
    `cat '/w/.agents/skills/${OURS}/SKILL.md'`,
    `sed -n '1,200p' .agents/skills/${OURS}/SKILL.md`,
    "head -50 /w/.agents/skills/limerick/SKILL.md",
    "cat /home/run/.codex/skills/.system/imagegen/SKILL.md",
    "ls .agents/skills",
    "cat README.md",
    `echo .agents/skills/${OURS}/SKILL.md`,
    "true",
  ];

  it("is the agent's own: a reader run on a SKILL.md under a skills root, the same as Codex's stream says", () => {
    expect(commands.map((c) => codexReplay.skillOf(exec(c)))).toEqual(commands.map(agentLoads));
    expect(commands.map((c) => codexReplay.skillOf(exec(c)))).toEqual([
      OURS,
      OURS,
      "limerick",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("reads the command of whichever shell tool the model was given", () => {
    const path = `/w/.agents/skills/${OURS}/SKILL.md`;
    expect(codexReplay.skillOf({ name: "shell_command", input: { command: `cat ${path}` } })).toBe(OURS);
    expect(codexReplay.skillOf({ name: "shell", input: { command: ["bash", "-lc", `cat ${path}`] } })).toBe(
      OURS,
    );
    expect(codexReplay.skillOf({ name: "local_shell", input: { command: ["cat", path] } })).toBe(OURS);
    // Only `<shell> -c <script>` is a script; any other argument list is its words, joined.
    expect(commandOfCall({ name: "shell", input: { command: ["bash", "-lc", "echo hi", "x"] } })).toBe(
      "bash -lc echo hi x",
    );
    expect(commandOfCall({ name: "shell", input: { command: ["zsh", "-c", "ls", 7] } })).toBe("ls");
  });

  it("is none for a call that runs no shell command: a patch, a JavaScript `exec`, a web search", () => {
    expect(codexReplay.skillOf({ name: "apply_patch", input: { input: "*** Begin Patch" } })).toBeUndefined();
    expect(
      codexReplay.skillOf({
        name: "exec",
        input: { input: `await tools.exec_command({cmd: "cat x/SKILL.md"})` },
      }),
    ).toBeUndefined();
    expect(codexReplay.skillOf({ name: "web_search_call", input: { query: "haiku" } })).toBeUndefined();
    // A tool of another kind (an MCP server's) whose input happens to hold a command runs nothing in Codex's shell.
    const path = `/w/.agents/skills/${OURS}/SKILL.md`;
    expect(codexReplay.skillOf({ name: "remote.run", input: { command: `cat ${path}` } })).toBeUndefined();
  });
});

// The sim's own writer makes the answers from Codex-shaped requests: the same bytes a replay reads from it.
function answer(content: SimReply["content"], stream: boolean): FirstTurn {
  const wire = openaiResponses.read(JSON.stringify({ ...simShaped("a query"), stream }), {
    "session-id": "s",
  });
  const reply: SimReply = { kind: "turn", action: "", latencyMs: 0, content, outputTokens: 3 };
  const written = openaiResponses.write(reply, wire, 1);
  return readOpenAiTurn(written.headers["content-type"] ?? "", written.body);
}
const skill = (name: string) => ({
  type: "tool_use" as const,
  id: "t1",
  name: "Skill",
  input: { skill: name },
});
const classify = (turn: FirstTurn) => classifyFirstTurn(turn, OURS, codexReplay.skillOf);

describe("reading a Responses answer of Codex's", () => {
  for (const stream of [true, false])
    it(`gives each label from the sim's ${stream ? "streamed (SSE)" : "whole (JSON)"} answer`, () => {
      const triggered = answer([{ type: "text", text: "Loading it." }, skill(OURS)], stream);
      expect(triggered).toMatchObject({
        text: "Loading it.",
        calls: [exec(`cat '/w/.agents/skills/${OURS}/SKILL.md'`)],
        model: SIM_MODEL,
        usage: { outputTokens: 3, cacheReadTokens: 0 },
      });
      expect(classify(triggered)).toEqual({ label: "triggered" });
      expect(classify(answer([skill("limerick")], stream))).toEqual({ label: "stolen", by: ["limerick"] });
      expect(classify(answer([{ type: "text", text: "Four." }], stream))).toEqual({ label: "not-triggered" });
      const shell = answer([{ type: "tool_use", id: "t2", name: "Bash", input: { command: "ls" } }], stream);
      expect(shell.calls).toEqual([exec("ls")]);
      expect(classify(shell)).toEqual({ label: "undecided" });
    });

  // OpenAI's own stream: reasoning first, the text in deltas, the call's arguments in deltas, cached input tokens.
  const events = [
    {
      type: "response.created",
      response: { id: "r", model: "gpt-6.1-sol", status: "in_progress", output: [] },
    },
    {
      type: "response.output_item.added",
      output_index: 0,
      item: { type: "reasoning", id: "rs", summary: [] },
    },
    {
      type: "response.output_item.done",
      output_index: 0,
      item: { type: "reasoning", id: "rs", summary: [] },
    },
    { type: "response.output_item.added", output_index: 1, item: { type: "message", id: "m", content: [] } },
    { type: "response.output_text.delta", output_index: 1, item_id: "m", delta: "Let me " },
    { type: "response.output_text.delta", output_index: 1, item_id: "m", delta: "check." },
    {
      type: "response.output_item.done",
      output_index: 1,
      item: {
        type: "message",
        id: "m",
        role: "assistant",
        content: [{ type: "output_text", text: "Let me check." }],
      },
    },
    {
      type: "response.output_item.added",
      output_index: 2,
      item: { type: "function_call", id: "fc", call_id: "c", name: "exec_command", arguments: "" },
    },
    { type: "response.function_call_arguments.delta", output_index: 2, item_id: "fc", delta: '{"cmd":' },
    {
      type: "response.output_item.done",
      output_index: 2,
      item: {
        type: "function_call",
        id: "fc",
        call_id: "c",
        name: "exec_command",
        arguments: JSON.stringify({ cmd: `cat /w/.agents/skills/${OURS}/SKILL.md`, yield_time_ms: 1000 }),
      },
    },
    {
      type: "response.completed",
      response: {
        id: "r",
        model: "gpt-6.1-sol-2026-10-01",
        status: "completed",
        usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 800 }, output_tokens: 40 },
      },
    },
  ];
  const sse = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");

  it("puts OpenAI's stream back together: reasoning left out, text, calls with their arguments, model and tokens", () => {
    const turn = readOpenAiTurn("text/event-stream; charset=utf-8", sse);
    expect(turn).toEqual({
      model: "gpt-6.1-sol-2026-10-01",
      usage: { inputTokens: 200, outputTokens: 40, cacheReadTokens: 800, cacheWriteTokens: 0 },
      text: "Let me check.",
      calls: [
        {
          name: "exec_command",
          input: { cmd: `cat /w/.agents/skills/${OURS}/SKILL.md`, yield_time_ms: 1000 },
        },
      ],
    });
    expect(classify(turn)).toEqual({ label: "triggered" });
  });

  it("takes the items of the final response when the stream gave none one by one", () => {
    const output = [{ type: "message", content: [{ type: "output_text", text: "Four." }] }];
    const only = `data: ${JSON.stringify({ type: "response.completed", response: { model: "m", output } })}\n\n`;
    expect(readOpenAiTurn("text/event-stream", only)).toEqual({ model: "m", text: "Four.", calls: [] });
    // An event's data may come over several `data:` lines; a closing `[DONE]` is no event.
    const split = `data: {"type":"response.completed",\ndata: "response":${JSON.stringify({ model: "m", output })}}\n\ndata: [DONE]\n\n`;
    expect(readOpenAiTurn("text/event-stream", split)).toEqual({ model: "m", text: "Four.", calls: [] });
  });

  it("counts a built-in tool's call (a web search) as a call, so the run is undecided", () => {
    const body = JSON.stringify({
      model: "m",
      output: [{ type: "web_search_call", id: "ws", status: "completed", action: { query: "haiku" } }],
    });
    const turn = readOpenAiTurn("application/json", body);
    expect(turn.calls).toEqual([{ name: "web_search_call", input: { query: "haiku" } }]);
    expect(classify(turn)).toEqual({ label: "undecided" });
  });

  it("fails on a stream that ends in an error or a failed response, and on a failed whole answer", () => {
    expect(() =>
      readOpenAiTurn("text/event-stream", 'event: error\ndata: {"type":"error","message":"overloaded"}\n\n'),
    ).toThrow(/overloaded/);
    expect(() =>
      readOpenAiTurn(
        "text/event-stream",
        `data: ${JSON.stringify({ type: "response.failed", response: { error: { message: "quota exceeded" } } })}\n\n`,
      ),
    ).toThrow(/quota exceeded/);
    expect(() =>
      readOpenAiTurn("application/json", JSON.stringify({ status: "failed", error: { message: "bad" } })),
    ).toThrow(/bad/);
  });
});
