import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { createOpenAiJudge } from "../../src/judge/openai.js";
import { failure, judgeError } from "./failures.js";
import { chatReply, type ScriptedEndpoint, scriptedEndpoint } from "./scripted-endpoint.js";

const request = { system: "s", prompt: "p" };

let endpoint: ScriptedEndpoint | undefined;
let silent: Server | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
  silent?.closeAllConnections();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
  silent = undefined;
});

// A server that takes every request and never answers it.
async function silentServer(): Promise<string> {
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
}

// The address of a port nothing listens on (a server's, closed).
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe("createOpenAiJudge", () => {
  it("is not simulated unless told so, and posts JSON to <base URL>/chat/completions, its trailing slashes cut", async () => {
    endpoint = await scriptedEndpoint([{ status: 401, body: "no" }]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: `${endpoint.url}/v1//` });
    expect([judge.backend, judge.model, judge.simulated]).toEqual(["openai", "m", false]);
    expect(createOpenAiJudge({ model: "m", baseUrl: endpoint.url, simulated: true }).simulated).toBe(true);
    const error = await judgeError(judge.complete(request));
    expect(error.message).toBe(
      `the judge (m at ${endpoint.url}/v1/chat/completions) refused the credentials: HTTP 401: no`,
    );
    expect(endpoint.headers[0]!["content-type"]).toBe("application/json");
  });

  it("says how long the call took, retries included", async () => {
    endpoint = await scriptedEndpoint([chatReply("ok")]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url });
    const before = Date.now();
    const response = await judge.complete(request);
    const elapsed = Date.now() - before;
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(response.durationMs).toBeLessThanOrEqual(elapsed);
  });

  it("waits twice as long before each retry", async () => {
    endpoint = await scriptedEndpoint([
      { status: 429, body: "slow down" },
      { status: 429, body: "slow down" },
      { status: 429, body: "slow down" },
      { status: 429, body: "slow down" },
      chatReply("ok"),
    ]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, maxRetries: 4, retryDelayMs: 100 });
    const response = await judge.complete(request);
    expect(endpoint.requests).toHaveLength(5);
    // 100 + 200 + 400 + 800 ms at least (halving each wait would take 188 ms).
    expect(response.durationMs).toBeGreaterThanOrEqual(1490);
  });

  it("retries an HTTP 500 as any 5xx", async () => {
    endpoint = await scriptedEndpoint([{ status: 500, body: "oops" }, chatReply("ok")]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, retryDelayMs: 1 });
    expect((await judge.complete(request)).text).toBe("ok");
    expect(endpoint.requests).toHaveLength(2);
  });

  it("takes an HTTP 403 for refused credentials, not retried", async () => {
    endpoint = await scriptedEndpoint([{ status: 403, body: "forbidden" }]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, retryDelayMs: 1 });
    const error = await judgeError(judge.complete(request));
    expect([error.message, error.retryable]).toEqual([
      `the judge (m at ${endpoint.url}/chat/completions) refused the credentials: HTTP 403: forbidden`,
      false,
    ]);
    expect(endpoint.requests).toHaveLength(1);
  });

  it("quotes an error's body trimmed and cut to 300 characters, and an empty body not at all", async () => {
    const long = `${"e".repeat(300)}TAIL`;
    endpoint = await scriptedEndpoint([
      { status: 400, body: `  \n${long}\n` },
      { status: 400, body: "" },
    ]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url });
    const url = `${endpoint.url}/chat/completions`;
    expect((await judgeError(judge.complete(request))).message).toBe(
      `the judge (m at ${url}) failed: HTTP 400: ${"e".repeat(300)}`,
    );
    expect((await judgeError(judge.complete(request))).message).toBe(
      `the judge (m at ${url}) failed: HTTP 400`,
    );
  });

  it("fails, not retried, on an answer that is not JSON, quoting its first 200 characters", async () => {
    endpoint = await scriptedEndpoint([{ status: 200, body: `${"<".repeat(200)}html>` }]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, retryDelayMs: 1 });
    const error = await judgeError(judge.complete(request));
    expect([error.message, error.retryable]).toEqual([
      `the judge (m at ${endpoint.url}/chat/completions) answered something that is not JSON: ${"<".repeat(200)}`,
      false,
    ]);
    expect(endpoint.requests).toHaveLength(1);
  });

  it("does not retry an answer without content", async () => {
    endpoint = await scriptedEndpoint([{ status: 200, body: { choices: [{ message: { content: null } }] } }]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, retryDelayMs: 1 });
    const error = await judgeError(judge.complete(request));
    expect(error.retryable).toBe(false);
    expect(endpoint.requests).toHaveLength(1);
  });

  it("says a server it cannot reach could not be reached, retryable, after its retries", async () => {
    const url = await closedPort();
    const judge = createOpenAiJudge({ model: "m", baseUrl: url, maxRetries: 1, retryDelayMs: 1 });
    const error = await judgeError(judge.complete(request));
    expect([error.message, error.retryable]).toEqual([
      `the judge (m at ${url}/chat/completions) failed: could not reach it: fetch failed`,
      true,
    ]);
  });

  it("gives up on a server that does not answer within the timeout", async () => {
    const url = await silentServer();
    const judge = createOpenAiJudge({ model: "m", baseUrl: url, timeoutMs: 1, maxRetries: 0 });
    const error = await judgeError(judge.complete(request));
    expect([error.message, error.retryable]).toEqual([
      `the judge (m at ${url}/chat/completions) failed: could not reach it: The operation was aborted due to timeout`,
      true,
    ]);
  });

  it("retries an answer whose body stops coming within the timeout, as one that never came", async () => {
    let requests = 0;
    silent = createServer((_req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"choices": [');
    });
    await new Promise<void>((resolve) => silent?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const judge = createOpenAiJudge({
      model: "m",
      baseUrl: url,
      timeoutMs: 50,
      maxRetries: 1,
      retryDelayMs: 1,
    });
    const error = await judgeError(judge.complete(request));
    expect([error.message, error.retryable]).toEqual([
      `the judge (m at ${url}/chat/completions) failed: could not reach it: The operation was aborted due to timeout`,
      true,
    ]);
    expect(requests).toBe(2);
  });

  it("is cancelled while its answer arrives", async () => {
    const controller = new AbortController();
    silent = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"choices": [', () => controller.abort());
    });
    await new Promise<void>((resolve) => silent?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const judge = createOpenAiJudge({ model: "m", baseUrl: url });
    const error = await failure(judge.complete({ ...request, signal: controller.signal }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect([(error as SkillgymError).code, error.message]).toEqual(["CANCELLED", "the judge was cancelled"]);
  });

  it("is cancelled, not retried, when its signal is aborted", async () => {
    endpoint = await scriptedEndpoint([chatReply("ok")]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, maxRetries: 0 });
    const controller = new AbortController();
    controller.abort();
    const error = await failure(judge.complete({ ...request, signal: controller.signal }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect([(error as SkillgymError).code, error.message]).toEqual(["CANCELLED", "the judge was cancelled"]);
    expect(endpoint.requests).toHaveLength(0);
  });

  it("is cancelled in the wait before a retry, asking nothing more", async () => {
    endpoint = await scriptedEndpoint([{ status: 429, body: "slow down" }, chatReply("ok")]);
    const judge = createOpenAiJudge({ model: "m", baseUrl: endpoint.url, retryDelayMs: 600_000 });
    const controller = new AbortController();
    // The first listener on the caller's signal is the wait's (fetch listens on a signal combined from it): the
    // abort comes as the wait starts.
    const listen = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = (...args: Parameters<AbortSignal["addEventListener"]>) => {
      listen(...args);
      controller.abort();
    };
    const error = await failure(judge.complete({ ...request, signal: controller.signal }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect([(error as SkillgymError).code, error.message]).toEqual(["CANCELLED", "the judge was cancelled"]);
    expect(endpoint.requests).toHaveLength(1);
  });
});
