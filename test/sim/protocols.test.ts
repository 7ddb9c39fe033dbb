import { describe, expect, it } from "vitest";
import { expectationsBlock, judgeMarkers } from "../../src/contracts/judge-markers.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createSimModel } from "../../src/sim/model.js";
import { anthropicMessages } from "../../src/sim/protocols/anthropic-messages.js";
import { openaiChat } from "../../src/sim/protocols/openai-chat.js";
import { openaiResponses } from "../../src/sim/protocols/openai-responses.js";
import type { HttpAnswer, Protocol } from "../../src/sim/protocols/protocol.js";

const graderPrompt = `${judgeMarkers.grader}\nGrade this run.\n${expectationsBlock(["report.md exists", "It cites pages"])}`;
const script = SimScript.parse({ judge: { verdicts: [{ match: "pages", passed: false }] } });

/** Each wire format: a request carrying one system and one user text, and the answer's text read back. */
const wires: {
  name: string;
  protocol: Protocol;
  request(system: string, user: string): object;
  text(answer: HttpAnswer): string;
}[] = [
  {
    name: "anthropic-messages",
    protocol: anthropicMessages,
    request: (system, user) => ({ model: "m", system, messages: [{ role: "user", content: user }] }),
    text: (answer) =>
      (JSON.parse(answer.body) as { content: { text: string }[] }).content.map((b) => b.text).join(""),
  },
  {
    name: "openai-chat",
    protocol: openaiChat,
    request: (system, user) => ({
      model: "m",
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
    }),
    text: (answer) =>
      (JSON.parse(answer.body) as { choices: { message: { content: string } }[] }).choices[0]!.message
        .content,
  },
  {
    name: "openai-responses",
    protocol: openaiResponses,
    request: (system, user) => ({
      model: "m",
      instructions: system,
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: user }] }],
    }),
    text: (answer) =>
      (JSON.parse(answer.body) as { output: { content: { text: string }[] }[] }).output
        .flatMap((item) => item.content.map((c) => c.text))
        .join(""),
  },
];

describe.each(wires)("the $name protocol", ({ protocol, request, text }) => {
  it("reads a judge prompt into the conversation model and writes the model's verdicts back", () => {
    const wire = protocol.read(JSON.stringify(request("You grade runs.", graderPrompt)), {});
    expect(wire.request.judgeText).toContain(judgeMarkers.grader);
    expect(wire.request.judgeText).toContain("You grade runs.");
    expect(wire.inputTokens).toBeGreaterThan(0);
    const reply = createSimModel(script).reply(wire.request);
    expect([reply.kind, reply.action]).toEqual(["judge", "judge grader"]);
    const answer = protocol.write(reply, wire, 7);
    expect(answer.status).toBe(200);
    const verdicts = JSON.parse(text(answer)) as { expectations: { text: string; passed: boolean }[] };
    expect(verdicts.expectations.map((e) => [e.text, e.passed])).toEqual([
      ["report.md exists", true],
      ["It cites pages", false],
    ]);
  });

  it("gives a plain question a plain answer", () => {
    const wire = protocol.read(JSON.stringify(request("Be brief.", "What is 2 + 2?")), {});
    const reply = createSimModel(script).reply(wire.request);
    expect(reply.kind).toBe("plain");
    expect(text(protocol.write(reply, wire, 1))).toBe("Simulated answer.");
  });

  it("writes a fault with its status as JSON", () => {
    const answer = protocol.error(429);
    expect(answer.status).toBe(429);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.body)).toHaveProperty("error");
  });
});

describe("anthropic-messages", () => {
  const body = (stream: boolean) =>
    JSON.stringify({
      model: "m",
      system: "Primary working directory: /w",
      messages: [{ role: "user", content: "do the thing" }],
      tools: [{ name: "Bash" }],
      stream,
    });

  it("takes the session from Claude Code's header, else from the prompt", () => {
    expect(anthropicMessages.read(body(false), { "x-claude-code-session-id": "s-1" }).request.session).toBe(
      "s-1",
    );
    const a = anthropicMessages.read(body(false), {}).request.session;
    expect(a).toMatch(/^prompt-[0-9a-f]{12}$/);
    expect(anthropicMessages.read(body(true), {}).request.session).toBe(a);
  });

  it("names each status's error type as the Messages API does", () => {
    const typeOf = (status: number) =>
      (JSON.parse(anthropicMessages.error(status).body) as { error: { type: string } }).error.type;
    expect([429, 529, 401, 500].map(typeOf)).toEqual([
      "rate_limit_error",
      "overloaded_error",
      "authentication_error",
      "api_error",
    ]);
  });

  it("streams when asked, as server-sent events that end with message_stop", () => {
    const wire = anthropicMessages.read(body(true), {});
    expect(wire.stream).toBe(true);
    expect(wire.request.conversation).toMatchObject({ prompt: "do the thing", cwd: "/w", hasTools: true });
    const reply = createSimModel(SimScript.parse({})).reply(wire.request);
    const answer = anthropicMessages.write(reply, wire, 3);
    expect(answer.headers["content-type"]).toBe("text/event-stream");
    expect(answer.body).toContain('"id":"msg_sim_3"');
    expect(answer.body.trimEnd().endsWith('data: {"type":"message_stop"}')).toBe(true);
  });
});

describe("openai-chat", () => {
  it("refuses a request without messages", () => {
    expect(() => openaiChat.read(JSON.stringify({ model: "m" }), {})).toThrow("messages: required, an array");
  });

  it("never reads a request as an agent's turn, so it never faults", () => {
    const wire = openaiChat.read(
      JSON.stringify({ messages: [{ role: "user", content: "hi" }], tools: [{}] }),
      {},
    );
    expect(wire.request.conversation.hasTools).toBe(false);
    expect(wire.request.session).toBe("chat-completions");
  });
});
