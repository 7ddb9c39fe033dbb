import { afterEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { createAnthropicJudge } from "../../src/judge/anthropic.js";
import { failure, judgeError } from "./failures.js";
import { type ScriptedEndpoint, type ScriptedReply, scriptedEndpoint } from "./scripted-endpoint.js";

const request = { system: "s", prompt: "p" };

let endpoint: ScriptedEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

function message(content: object[], usage: object = { input_tokens: 10, output_tokens: 5 }): ScriptedReply {
  return {
    status: 200,
    body: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-haiku-4-5-20251001",
      content,
      stop_reason: "end_turn",
      usage,
    },
  };
}

describe("createAnthropicJudge", () => {
  it("joins the answer's text blocks, leaving out the others", async () => {
    endpoint = await scriptedEndpoint([
      message([
        { type: "thinking", thinking: "hmm", signature: "sig" },
        { type: "text", text: "Hello, " },
        { type: "text", text: "world" },
      ]),
    ]);
    const judge = createAnthropicJudge({ model: "claude-haiku-4-5", apiKey: "k", baseURL: endpoint.url });
    expect((await judge.complete(request)).text).toBe("Hello, world");
  });

  it("counts cache writes and reads as input tokens, and says how long the call took", async () => {
    endpoint = await scriptedEndpoint([
      message([{ type: "text", text: "ok" }], {
        input_tokens: 100,
        output_tokens: 5,
        cache_read_input_tokens: 20,
        cache_creation_input_tokens: 3,
      }),
    ]);
    const judge = createAnthropicJudge({ model: "claude-haiku-4-5", apiKey: "k", baseURL: endpoint.url });
    const before = Date.now();
    const response = await judge.complete(request);
    const elapsed = Date.now() - before;
    expect([response.inputTokens, response.outputTokens]).toEqual([123, 5]);
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(response.durationMs).toBeLessThanOrEqual(elapsed);
  });

  it("names the model and api.anthropic.com in a failure no retry mends", async () => {
    // Without a timeout of its own, the SDK refuses before any request a non-streamed answer this long may take.
    const judge = createAnthropicJudge({ model: "claude-haiku-4-5", apiKey: "k" });
    const error = await judgeError(judge.complete({ ...request, maxTokens: 64_000 }));
    expect(error.message).toMatch(
      /^the judge \(claude-haiku-4-5 at https:\/\/api\.anthropic\.com\) failed: Streaming is required /,
    );
    expect(error.retryable).toBe(false);
  });

  it("gives the SDK its timeout, which lets a long answer be asked for without streaming", async () => {
    endpoint = await scriptedEndpoint([message([{ type: "text", text: "long" }])]);
    const judge = createAnthropicJudge({
      model: "claude-haiku-4-5",
      apiKey: "k",
      baseURL: endpoint.url,
      timeoutMs: 900_000,
    });
    expect((await judge.complete({ ...request, maxTokens: 64_000 })).text).toBe("long");
    expect(endpoint.requests[0]).toMatchObject({ max_tokens: 64_000 });
  });

  it("says the model was not found, not retried", async () => {
    endpoint = await scriptedEndpoint([
      {
        status: 404,
        body: { type: "error", error: { type: "not_found_error", message: "model: claude-nope" } },
      },
    ]);
    const judge = createAnthropicJudge({ model: "claude-nope", apiKey: "k", baseURL: endpoint.url });
    const error = await judgeError(judge.complete(request));
    expect(error.message).toMatch(
      new RegExp(`^the judge model claude-nope was not found at ${endpoint.url}: 404 .*model: claude-nope`),
    );
    expect(error.retryable).toBe(false);
    expect(endpoint.requests).toHaveLength(1);
  });

  it("is cancelled, asking nothing, when its signal is aborted", async () => {
    endpoint = await scriptedEndpoint([message([{ type: "text", text: "ok" }])]);
    const judge = createAnthropicJudge({ model: "claude-haiku-4-5", apiKey: "k", baseURL: endpoint.url });
    const controller = new AbortController();
    controller.abort();
    const error = await failure(judge.complete({ ...request, signal: controller.signal }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect([(error as SkillgymError).code, error.message]).toEqual(["CANCELLED", "the judge was cancelled"]);
    expect(endpoint.requests).toHaveLength(0);
  });
});
