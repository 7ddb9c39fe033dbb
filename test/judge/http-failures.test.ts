import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicJudge } from "../../src/judge/anthropic.js";
import { type GraderInput, gradeWithJudge } from "../../src/judge/grader.js";
import { JudgeError } from "../../src/judge/judge.js";
import { createOpenAiJudge } from "../../src/judge/openai.js";
import { chatReply, type ScriptedEndpoint, scriptedEndpoint } from "./scripted-endpoint.js";

const input: GraderInput = {
  prompt: "Say hi",
  expectations: ["It says hi", "It is polite"],
  outputs: [],
  transcript: "hi",
};
const good = JSON.stringify({
  expectations: [
    { text: "It says hi", passed: true, evidence: 'transcript: "hi"' },
    { text: "It is polite", passed: "FAIL", evidence: "No courtesy words." },
  ],
});
const request = { system: "s", prompt: "p" };

let endpoint: ScriptedEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<JudgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JudgeError);
  return error as JudgeError;
}

type Message = { role: string; content: string };

describe("gradeWithJudge: an unreadable answer", () => {
  it("is asked once more, saying what was wrong, and the costs add up", async () => {
    endpoint = await scriptedEndpoint([chatReply("I think it mostly passes."), chatReply(`Sure:\n${good}`)]);
    const judge = createOpenAiJudge({
      model: "local",
      baseUrl: `${endpoint.url}/v1`,
      price: { input: 1, output: 10 },
    });
    const { graded, response } = await gradeWithJudge(judge, input);
    expect(graded.expectations.map((e) => e.passed)).toEqual([true, false]);
    expect(response).toMatchObject({ attempts: 2, inputTokens: 2000, outputTokens: 400 });
    expect(response.costUsd).toBeCloseTo((2 * (1000 * 1 + 200 * 10)) / 1_000_000, 12);
    const prompts = endpoint.requests.map((r) => (r.messages as Message[])[1]!.content);
    expect(prompts[0]).not.toContain("Your previous answer could not be used");
    expect(prompts[1]).toContain(
      "Your previous answer could not be used: the judge's answer holds no JSON object. Answer again",
    );
  });

  it("fails with a JudgeError after the second unreadable answer, keeping what it cost", async () => {
    endpoint = await scriptedEndpoint([chatReply('{"expectations": []}')]);
    const judge = createOpenAiJudge({
      model: "local",
      baseUrl: `${endpoint.url}/v1`,
      price: { input: 1, output: 0 },
    });
    const error = await rejection(gradeWithJudge(judge, input));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'the judge\'s answer could not be read after 2 tries: the judge gave no verdict for expectation 1: "It says hi"',
    );
    expect(error.costUsd).toBeCloseTo(0.002, 12);
    expect(endpoint.requests).toHaveLength(2);
  });

  it("is not asked again with attempts: 1", async () => {
    endpoint = await scriptedEndpoint([chatReply("no")]);
    const judge = createOpenAiJudge({ model: "local", baseUrl: endpoint.url });
    await rejection(gradeWithJudge(judge, input, { attempts: 1 }));
    expect(endpoint.requests).toHaveLength(1);
  });
});

describe("the openai backend over HTTP", () => {
  it("sends the model, a system and a user message, max_tokens, and the key when there is one", async () => {
    endpoint = await scriptedEndpoint([chatReply("ok")]);
    const keyed = createOpenAiJudge({ model: "gpt-x", baseUrl: endpoint.url, apiKey: "sk-openai" });
    await keyed.complete({ ...request, maxTokens: 77 });
    const bare = createOpenAiJudge({ model: "gpt-x", baseUrl: endpoint.url });
    const response = await bare.complete(request);
    expect(endpoint.requests[0]).toEqual({
      model: "gpt-x",
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "p" },
      ],
      max_tokens: 77,
    });
    expect(endpoint.headers[0]!.authorization).toBe("Bearer sk-openai");
    expect(endpoint.headers[1]!.authorization).toBeUndefined();
    expect(response).toMatchObject({
      text: "ok",
      model: "local-model",
      inputTokens: 1000,
      outputTokens: 200,
    });
  });

  it("retries a rate limit, then answers", async () => {
    endpoint = await scriptedEndpoint([{ status: 429, body: { error: "slow down" } }, chatReply("ok")]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, retryDelayMs: 1 });
    expect((await judge.complete(request)).text).toBe("ok");
    expect(endpoint.requests).toHaveLength(2);
  });

  it("gives up on a server that keeps failing with a retryable JudgeError", async () => {
    endpoint = await scriptedEndpoint([{ status: 503, body: "unavailable" }]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, retryDelayMs: 1 });
    const error = await rejection(judge.complete(request));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("HTTP 503: unavailable");
    expect(endpoint.requests).toHaveLength(3);
  });

  it("does not retry refused credentials or a bad request", async () => {
    endpoint = await scriptedEndpoint([
      { status: 401, body: { error: "bad key" } },
      { status: 400, body: { error: "no such model" } },
    ]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, retryDelayMs: 1 });
    const refused = await rejection(judge.complete(request));
    expect([refused.retryable, refused.message]).toEqual([
      false,
      `the judge (m at ${endpoint.url}/chat/completions) refused the credentials: HTTP 401: {"error":"bad key"}`,
    ]);
    const bad = await rejection(judge.complete(request));
    expect(bad.retryable).toBe(false);
    expect(bad.message).toContain("no such model");
    expect(endpoint.requests).toHaveLength(2);
  });

  it("fails clearly on an answer without content", async () => {
    endpoint = await scriptedEndpoint([{ status: 200, body: { choices: [] } }]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url });
    expect((await rejection(judge.complete(request))).message).toContain(
      "without choices[0].message.content",
    );
  });
});

describe("the anthropic backend over HTTP", () => {
  const message = (usage: object) => ({
    status: 200,
    body: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5-20250929",
      content: [{ type: "text", text: "ok" }],
      stop_reason: "end_turn",
      usage,
    },
  });

  it("prices usage, cache reads and writes included, by the model's family", async () => {
    endpoint = await scriptedEndpoint([
      message({
        input_tokens: 1_000_000,
        output_tokens: 100_000,
        cache_read_input_tokens: 1_000_000,
        cache_creation_input_tokens: 0,
      }),
    ]);
    const judge = createAnthropicJudge({ model: "claude-sonnet-4-5", apiKey: "k", baseURL: endpoint.url });
    const response = await judge.complete(request);
    expect(response).toMatchObject({
      text: "ok",
      model: "claude-sonnet-4-5-20250929",
      outputTokens: 100_000,
    });
    expect(response.inputTokens).toBe(2_000_000);
    expect(response.costUsd).toBeCloseTo(3 + 0.3 + 1.5, 10);
    expect(endpoint.headers[0]!["x-api-key"] ?? endpoint.headers[0]!.authorization).toBeTruthy();
    expect(endpoint.requests[0]).toMatchObject({
      model: "claude-sonnet-4-5",
      system: "s",
      messages: [{ role: "user", content: "p" }],
      max_tokens: 8192,
    });
  });

  it("turns overload that outlasts the SDK's 2 retries into a retryable JudgeError", async () => {
    endpoint = await scriptedEndpoint([
      {
        status: 529,
        body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
        headers: { "retry-after-ms": "1" },
      },
    ]);
    const judge = createAnthropicJudge({ model: "claude-haiku-4-5", apiKey: "k", baseURL: endpoint.url });
    const error = await rejection(judge.complete(request));
    expect(error.retryable).toBe(true);
    expect(endpoint.requests).toHaveLength(3);
  });

  it("does not retry refused credentials", async () => {
    endpoint = await scriptedEndpoint([
      {
        status: 401,
        body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
      },
    ]);
    const judge = createAnthropicJudge({ model: "claude-haiku-4-5", apiKey: "k", baseURL: endpoint.url });
    const error = await rejection(judge.complete(request));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("credentials were refused");
    expect(endpoint.requests).toHaveLength(1);
  });
});
