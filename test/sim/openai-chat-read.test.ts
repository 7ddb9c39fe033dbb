import { afterEach, describe, expect, it } from "vitest";
import { SIM_MODEL } from "../../src/sim/encode.js";
import { openaiChat } from "../../src/sim/protocols/openai-chat.js";
import { type SimServer, startSim } from "../../src/sim/server.js";

describe("the chat-completions reader", () => {
  it("gives the judge the texts of system and user messages only, text parts joined by line breaks, other parts and shapes as empty text", () => {
    const wire = openaiChat.read(
      JSON.stringify({
        model: "gpt-x",
        messages: [
          { role: "system", content: "Be brief." },
          {
            role: "user",
            content: [
              { type: "text", text: "Sum" },
              { type: "image_url" },
              { type: "text", text: "the rows" },
              { type: "text", text: 42 },
            ],
          },
          { role: "assistant", content: "Done." },
          { role: "user", content: null },
        ],
      }),
      {},
    );
    expect(wire.request.judgeText).toBe("Be brief.\nSum\n\nthe rows\n\n");
    expect(wire.request.session).toBe("chat-completions");
    expect(wire.request.conversation.model).toBe("gpt-x");
  });

  it("names the model unknown when the request names none", () => {
    const wire = openaiChat.read(JSON.stringify({ messages: [{ role: "user", content: "hi" }] }), {});
    expect(wire.request.conversation.model).toBe("unknown");
    expect(wire.request.judgeText).toBe("hi");
  });
});

describe("the chat-completions answer", () => {
  let sim: SimServer | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it("answers over HTTP as a chat.completion with its usage, logged as no agent's prompt", async () => {
    sim = await startSim();
    const before = Math.floor(Date.now() / 1000);
    const response = await fetch(`${sim.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-x", messages: [{ role: "user", content: "What is 2 + 2?" }] }),
    });
    const after = Math.floor(Date.now() / 1000);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      created: number;
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expect(body).toEqual({
      id: "chatcmpl-sim-1",
      object: "chat.completion",
      created: body.created,
      model: SIM_MODEL,
      choices: [
        { index: 0, message: { role: "assistant", content: "Simulated answer." }, finish_reason: "stop" },
      ],
      usage: {
        prompt_tokens: body.usage.prompt_tokens,
        completion_tokens: body.usage.completion_tokens,
        total_tokens: body.usage.prompt_tokens + body.usage.completion_tokens,
      },
    });
    expect(body.created).toBeGreaterThanOrEqual(before);
    expect(body.created).toBeLessThanOrEqual(after);
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(sim.log.map((e) => [e.session, e.prompt, e.action])).toEqual([
      ["chat-completions", "", "chat-completion"],
    ]);
  });

  it("carries the reply's texts run together, and no tool call", () => {
    const wire = openaiChat.read(JSON.stringify({ messages: [{ role: "user", content: "hi" }] }), {});
    const answer = openaiChat.write(
      {
        kind: "plain",
        action: "side-request",
        latencyMs: 0,
        content: [
          { type: "text", text: "Four" },
          { type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } },
          { type: "text", text: "." },
        ],
        outputTokens: 2,
      },
      wire,
      1,
    );
    const body = JSON.parse(answer.body) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]!.message.content).toBe("Four.");
  });

  it("writes a fault as an OpenAI error naming its status", () => {
    const answer = openaiChat.error(500);
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({
      error: { type: "server_error", message: "Simulated 500 from skillgym sim", code: 500 },
    });
  });
});
