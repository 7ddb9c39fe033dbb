import { describe, expect, it } from "vitest";
import { createGeminiStreamParser } from "../../../src/agents/gemini/parse-stream.js";
import { SIM_MODEL } from "../../../src/contracts/sim-model.js";
import type { SimReply } from "../../../src/sim/model.js";
import { gemini } from "../../../src/sim/protocols/gemini.js";
import { replayAdapterFor } from "../../../src/triggers/replay/adapters.js";
import { classifyFirstTurn, type FirstTurn } from "../../../src/triggers/replay/first-turn.js";
import { geminiReplay } from "../../../src/triggers/replay/gemini.js";
import { readGeminiTurn } from "../../../src/triggers/replay/gemini-turn.js";
import type { RecordedRequest } from "../../../src/triggers/replay/recording-proxy.js";

const MARKER = "SKILLGYMREPLAYQUERY0123456789abcdef";
const OURS = "haiku-sg-1a2b3c4d";
const post = (path: string, body: object): RecordedRequest => ({
  method: "POST",
  path,
  headers: {},
  body: JSON.stringify(body),
});
const context = "<session_context>\nThis is the Gemini CLI.\n</session_context>";
const contents = (text: string) => [{ role: "user", parts: [{ text: context }, { text }] }];
const functions = [{ functionDeclarations: [{ name: "run_shell_command" }, { name: "activate_skill" }] }];
const STREAM = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";

it("is the adapter replay finds for the agent named gemini", () => {
  expect(replayAdapterFor("gemini")).toBe(geminiReplay);
});

describe("Gemini CLI's first real model request", () => {
  const side = [
    post("/v1beta/models/gemini-2.5-flash:countTokens", { contents: contents(MARKER), tools: functions }),
    // The next-speaker check after a text answer: the conversation (so the marker), a JSON schema, no tools.
    post("/v1beta/models/gemini-2.5-flash:generateContent", {
      contents: [...contents(MARKER), { role: "model", parts: [{ text: "Done." }] }],
      generationConfig: { responseMimeType: "application/json", responseJsonSchema: { type: "object" } },
    }),
    // Its web search tool's own request: a built-in tool, no function of the agent's.
    post("/v1beta/models/gemini-2.5-flash:generateContent", {
      contents: contents(MARKER),
      tools: [{ googleSearch: {} }],
    }),
    post(STREAM, { contents: contents(MARKER), tools: [] }),
    post(STREAM, { contents: contents(MARKER), tools: [null, { functionDeclarations: [] }] }),
    { method: "GET", path: "/v1beta/models", headers: {}, body: "" },
  ];
  const real = post(STREAM, { contents: contents(MARKER), tools: functions });

  it("is the generateContent request with its function declarations and the marker, not a count, a check or a listing", () => {
    const recorded = [...side, real, post(STREAM, { contents: contents(MARKER), tools: functions })];
    expect(recorded.find((r) => geminiReplay.isFirstRequest(r, MARKER))).toBe(real);
  });

  it("is taken whole too (generateContent), under a base URL with a path of its own", () => {
    const whole = post("/proxy/v1beta/models/gemini-2.5-pro:generateContent", {
      contents: contents(MARKER),
      tools: functions,
    });
    expect(geminiReplay.isFirstRequest(whole, MARKER)).toBe(true);
  });

  it("is none when no request with functions carries the marker", () => {
    expect(side.some((r) => geminiReplay.isFirstRequest(r, MARKER))).toBe(false);
    expect(geminiReplay.isFirstRequest(real, "SKILLGYMREPLAYQUERYffffffffffffffff")).toBe(false);
    expect(geminiReplay.isFirstRequest({ ...real, body: `${real.body}x` }, MARKER)).toBe(false);
  });
});

describe("a replay of Gemini CLI's request", () => {
  it("sends the provider's key as Gemini CLI does, and never keeps the capture's", () => {
    expect(geminiReplay.apiKeyVariables).toEqual(["GEMINI_API_KEY", "GOOGLE_API_KEY"]);
    expect(geminiReplay.replayHeaders("AIza-test")).toEqual({ "x-goog-api-key": "AIza-test" });
    expect(geminiReplay.droppedHeaders).toContain("x-goog-api-key");
  });
});

const call = (name: string, input: Record<string, unknown>) => ({ name, input });
const classify = (turn: FirstTurn) => classifyFirstTurn(turn, OURS, geminiReplay.skillOf);

describe("the skill a call of Gemini CLI's loads", () => {
  const calls = [
    call("activate_skill", { name: OURS }),
    call("read_file", { file_path: `/w/.gemini/skills/${OURS}/SKILL.md` }),
    call("read_file", { absolute_path: "/w/.agents/skills/limerick/SKILL.md" }),
    call("read_file", { file_path: "/w/README.md" }),
    call("run_shell_command", { command: `cat .gemini/skills/${OURS}/SKILL.md` }),
    call("activate_skill", {}),
    call("Skill", { skill: OURS }),
  ];

  it("is its activate_skill naming it or a read_file of its SKILL.md; nothing else", () => {
    expect(calls.map(geminiReplay.skillOf)).toEqual([
      OURS,
      OURS,
      "limerick",
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("is the one the agent's own stream parser counts as loaded, call for call", () => {
    const parse = createGeminiStreamParser();
    const agentSays = calls.map((c, i) => {
      const line = JSON.stringify({
        type: "tool_use",
        tool_name: c.name,
        tool_id: `t${i}`,
        parameters: c.input,
      });
      const load = parse(line).find((e) => e.kind === "skill_load");
      return load?.kind === "skill_load" ? load.skill : undefined;
    });
    expect(calls.map(geminiReplay.skillOf)).toEqual(agentSays);
  });
});

// The sim's own writer makes these answers: the same bytes a replay reads from it under --simulate.
function simAnswer(content: SimReply["content"], stream: boolean): FirstTurn {
  const reply: SimReply = { kind: "turn", action: "", latencyMs: 0, content, outputTokens: 3 };
  const wire = {
    request: { conversation: {} as never, judgeText: "", session: "s" },
    stream,
    inputTokens: 10,
    model: SIM_MODEL,
  };
  const written = gemini.write(reply, wire, 1);
  return readGeminiTurn(written.headers["content-type"] ?? "", written.body);
}

describe("a first turn of Gemini CLI's, read from the answer", () => {
  const skill = (name: string): SimReply["content"][number] => ({
    type: "tool_use",
    id: "t1",
    name: "Skill",
    input: { skill: name },
  });
  for (const stream of [true, false]) {
    const how = stream ? "streamed (SSE)" : "whole (JSON)";
    it(`is triggered, stolen, not triggered or undecided, ${how}`, () => {
      expect(classify(simAnswer([skill(OURS)], stream))).toEqual({ label: "triggered" });
      expect(
        classify(
          simAnswer(
            [
              {
                type: "tool_use",
                id: "r",
                name: "Read",
                input: { file_path: `/w/.gemini/skills/${OURS}/SKILL.md` },
              },
            ],
            stream,
          ),
        ),
      ).toEqual({ label: "triggered" });
      expect(classify(simAnswer([skill("limerick")], stream))).toEqual({ label: "stolen", by: ["limerick"] });
      expect(classify(simAnswer([{ type: "text", text: "Four." }], stream))).toEqual({
        label: "not-triggered",
      });
      expect(
        classify(simAnswer([{ type: "tool_use", id: "b", name: "Bash", input: { command: "ls" } }], stream)),
      ).toEqual({ label: "undecided" });
    });

    it(`keeps the text, the calls with their arguments, the model and the tokens, ${how}`, () => {
      expect(simAnswer([{ type: "text", text: "Let me look." }, skill(OURS)], stream)).toEqual({
        text: "Let me look.",
        calls: [call("activate_skill", { name: OURS })],
        model: SIM_MODEL,
        usage: { inputTokens: 10, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 },
      });
    });
  }

  // As the Gemini API streams: CRLF between events, a thought first, the text in pieces, the call whole, usage last.
  const chunk = (parts: object[], extra: object = {}) =>
    JSON.stringify({
      candidates: [{ content: { role: "model", parts }, index: 0 }],
      modelVersion: "gemini-2.5-flash",
      responseId: "r-1",
      ...extra,
    });
  const realStream = [
    chunk([{ text: "**Choosing a skill**\n\nThe user wants a haiku.", thought: true }], {
      usageMetadata: { promptTokenCount: 9120, totalTokenCount: 9220, thoughtsTokenCount: 100 },
    }),
    chunk([{ text: "I'll use the" }]),
    chunk([{ text: " haiku skill." }]),
    chunk(
      [{ functionCall: { name: "activate_skill", args: { name: OURS } }, thoughtSignature: "CiQB0e2Kb" }],
      {
        usageMetadata: {
          promptTokenCount: 9120,
          candidatesTokenCount: 24,
          cachedContentTokenCount: 8000,
          thoughtsTokenCount: 100,
          totalTokenCount: 9244,
        },
      },
    ),
  ]
    .map((data) => `data: ${data}\r\n\r\n`)
    .join("");
  const realTurn: FirstTurn = {
    model: "gemini-2.5-flash",
    usage: { inputTokens: 1120, outputTokens: 124, cacheReadTokens: 8000, cacheWriteTokens: 0 },
    text: "I'll use the haiku skill.",
    calls: [call("activate_skill", { name: OURS })],
  };

  it("puts a real-shaped stream back together: its thought left out, text pieces joined, thinking billed as output", () => {
    expect(readGeminiTurn("text/event-stream", realStream)).toEqual(realTurn);
  });

  it("reads streamGenerateContent without alt=sse (a JSON array of the same chunks) the same", () => {
    const array = `[${realStream
      .split("\r\n\r\n")
      .filter(Boolean)
      .map((e) => e.slice("data: ".length))
      .join(",\n")}]`;
    expect(readGeminiTurn("application/json; charset=UTF-8", array)).toEqual(realTurn);
  });

  it("fails on an answer that is an error", () => {
    expect(() =>
      readGeminiTurn(
        "text/event-stream",
        `data: ${chunk([{ text: "Hi" }])}\n\ndata: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\n\n`,
      ),
    ).toThrow(/overloaded/);
  });
});

describe("the queries Gemini CLI sends as written", () => {
  it("are all but a slash command and an @ reference, which it rewrites first: the agent makes those runs", () => {
    const asIs = [
      "write a haiku",
      'a "quoted"\nhaiku',
      "// not a command",
      "/* nor this */",
      "mail me \\@home",
      "a @ b",
    ];
    const rewritten = [
      "/review the notes",
      "  /haiku",
      "summarize @README.md",
      "haiku on @src/a.ts please",
      "x@y.z",
    ];
    expect(asIs.filter((q) => geminiReplay.sendsAsIs?.(q) !== true)).toEqual([]);
    expect(rewritten.filter((q) => geminiReplay.sendsAsIs?.(q) !== false)).toEqual([]);
  });
});
