import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { createJudge, type JudgeOptions } from "../../src/judge/create.js";
import { JudgeError } from "../../src/judge/judge.js";
import { failure } from "./failures.js";
import { initLine, resultLine, scriptedClaude } from "./scripted-claude.js";
import { chatReply, type ScriptedEndpoint, scriptedEndpoint } from "./scripted-endpoint.js";

// What createJudge hands each backend: its key, its URL, its timeout, its model, its environment and sandbox.
const request = { system: "s", prompt: "p" };

let dir: string;
let endpoint: ScriptedEndpoint | undefined;
let silent: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-create-judge-"));
});
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
  silent?.closeAllConnections();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
  silent = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function refusal(options: JudgeOptions): Promise<SkillgymError> {
  const error = await failure(createJudge(options));
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

const anthropicMessage = {
  status: 200,
  body: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-haiku-4-5",
    content: [{ type: "text", text: "ok" }],
    stop_reason: "end_turn",
    usage: { input_tokens: 1, output_tokens: 1 },
  },
};

describe("createJudge's refusals", () => {
  it("says how to get a simulator for the sim backend", async () => {
    const error = await refusal({ backend: "sim" });
    expect([error.code, error.message, error.hint]).toEqual([
      "USAGE",
      "the sim judge needs the URL of a running skillgym sim",
      "use --simulate, which starts one, or choose another --judge",
    ]);
  });

  it("says the openai backend needs a model", async () => {
    const error = await refusal({ backend: "openai", env: { OPENAI_API_KEY: "k" } });
    expect(error.message).toBe("the openai judge needs a model");
  });

  it("takes OpenAI's own API with trailing slashes for OpenAI's, which needs a key", async () => {
    const error = await refusal({
      backend: "openai",
      model: "gpt-4.1",
      baseUrl: "https://api.openai.com/v1//",
      env: {},
    });
    expect([error.code, error.message, error.hint]).toEqual([
      "NO_CREDENTIALS",
      "the openai judge needs OPENAI_API_KEY for https://api.openai.com/v1//",
      "set OPENAI_API_KEY, or point --judge-base-url (or OPENAI_BASE_URL) at a local OpenAI-compatible server",
    ]);
    const keyed = await createJudge({ backend: "openai", model: "gpt-4.1", env: { OPENAI_API_KEY: "k" } });
    expect([keyed.backend, keyed.model]).toEqual(["openai", "gpt-4.1"]);
  });

  it("names the unknown backend", async () => {
    const error = await refusal({ backend: "bard" as JudgeOptions["backend"] });
    expect(error.message).toBe('unknown judge backend "bard"');
  });
});

describe("createJudge's API backends", () => {
  it("gives the sim backend the simulator's key", async () => {
    endpoint = await scriptedEndpoint([anthropicMessage]);
    const judge = await createJudge({ backend: "sim", simulatorUrl: endpoint.url, env: {} });
    await judge.complete(request);
    const headers = endpoint.headers[0]!;
    expect(headers["x-api-key"] ?? headers.authorization).toMatch(/^(Bearer )?sk-skillgym-simulator$/);
  });

  it("gives the anthropic backend its timeout, which lets a long answer be asked for without streaming", async () => {
    endpoint = await scriptedEndpoint([anthropicMessage]);
    const judge = await createJudge({
      backend: "anthropic",
      baseUrl: endpoint.url,
      timeoutMs: 900_000,
      env: { ANTHROPIC_API_KEY: "k" },
    });
    expect((await judge.complete({ ...request, maxTokens: 64_000 })).text).toBe("ok");
    expect(endpoint.headers[0]!["x-stainless-timeout"]).toBe("900");
  });

  it("sends OPENAI_API_KEY to a local endpoint, never to the simulator", async () => {
    endpoint = await scriptedEndpoint([chatReply("ok")]);
    const local = await createJudge({
      backend: "openai",
      model: "llama",
      baseUrl: endpoint.url,
      env: { OPENAI_API_KEY: "sk-openai" },
    });
    await local.complete(request);
    const simulated = await createJudge({
      backend: "openai",
      model: "llama",
      simulatorUrl: endpoint.url,
      env: { OPENAI_API_KEY: "sk-openai" },
    });
    await simulated.complete(request);
    expect(endpoint.headers.map((h) => h.authorization)).toEqual(["Bearer sk-openai", undefined]);
  });

  it("talks to the simulator's /v1 under the openai backend, the URL's trailing slashes cut", async () => {
    endpoint = await scriptedEndpoint([{ status: 401, body: "no" }]);
    const judge = await createJudge({ backend: "openai", model: "m", simulatorUrl: `${endpoint.url}//` });
    const error = await failure(judge.complete(request));
    expect(error.message).toBe(
      `the judge (m at ${endpoint.url}/v1/chat/completions) refused the credentials: HTTP 401: no`,
    );
  });

  it("gives the openai backend its timeout", async () => {
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const judge = await createJudge({ backend: "openai", model: "m", baseUrl: url, timeoutMs: 1, env: {} });
    const error = await failure(judge.complete(request));
    expect(error).toBeInstanceOf(JudgeError);
    expect(error.message).toBe(
      `the judge (m at ${url}/chat/completions) failed: could not reach it: The operation was aborted due to timeout`,
    );
  });
});

describe("createJudge's agent backends (a scripted claude binary)", () => {
  const answered = { lines: [initLine("claude-opus-4-5"), resultLine("verdict", { costUsd: 0.5 })] };

  it("gives the agent its model and the suite's variables", async () => {
    const claude = await scriptedClaude(dir, answered);
    const judge = await createJudge({
      backend: "claude-code",
      binary: claude.binary,
      model: "claude-opus-4-1",
      passEnv: ["SUITE_TOKEN"],
      env: { ANTHROPIC_API_KEY: "k", HOME: join(dir, "home"), SUITE_TOKEN: "suite-value" },
    });
    expect(judge.model).toBe("claude-opus-4-1");
    await judge.complete(request);
    const [call] = await claude.calls();
    expect(call!.argv).toEqual(expect.arrayContaining(["--model", "claude-opus-4-1"]));
    expect(call!.env.SUITE_TOKEN).toBe("suite-value");
  });

  it("gives the agent its timeout", async () => {
    const claude = await scriptedClaude(dir, { hang: true });
    const judge = await createJudge({
      backend: "claude-code",
      binary: claude.binary,
      simulatorUrl: "http://127.0.0.1:9",
      timeoutMs: 1,
    });
    const error = await failure(judge.complete(request));
    expect(error).toBeInstanceOf(JudgeError);
    expect(error.message).toMatch(/^Claude Code \(the judge\) failed: timed out after \d+ s$/);
  });

  it.skipIf(process.platform !== "linux")("sandboxes the agent when asked", async () => {
    const claude = await scriptedClaude(dir, answered);
    const bwrapDir = join(dir, "bin");
    await mkdir(bwrapDir);
    await writeFile(join(bwrapDir, "bwrap"), "#!/bin/sh\n");
    await chmod(join(bwrapDir, "bwrap"), 0o755);
    const options = {
      backend: "claude-code",
      binary: claude.binary,
      simulatorUrl: "http://127.0.0.1:9",
      env: { PATH: bwrapDir },
    } as const;
    expect((await createJudge({ ...options, sandbox: true })).sandboxed).toBe(true);
    expect((await createJudge(options)).sandboxed).toBeUndefined();
  });
});
