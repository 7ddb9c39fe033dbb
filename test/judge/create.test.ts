import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { createJudge, type JudgeOptions } from "../../src/judge/create.js";
import { JudgeError } from "../../src/judge/judge.js";

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "skillgym-judge-home-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

async function refusal(options: JudgeOptions): Promise<SkillgymError> {
  const error = await createJudge(options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

describe("createJudge", () => {
  it("refuses the anthropic backend without a key or token, with a hint", async () => {
    const error = await refusal({ backend: "anthropic", env: { PATH: "/usr/bin" } });
    expect(error.code).toBe("NO_CREDENTIALS");
    expect(error.message).toContain("ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN");
    expect(error.hint).toContain("--judge claude-code");
  });

  it("builds the anthropic backend from a key or a token, with its default model", async () => {
    const keyed = await createJudge({ backend: "anthropic", env: { ANTHROPIC_API_KEY: "k" } });
    expect([keyed.backend, keyed.model, keyed.simulated]).toEqual(["anthropic", "claude-sonnet-4-5", false]);
    const token = await createJudge({
      backend: "anthropic",
      model: "claude-opus-4-5",
      env: { ANTHROPIC_AUTH_TOKEN: "t" },
    });
    expect(token.model).toBe("claude-opus-4-5");
  });

  it("needs a model for the openai backend", async () => {
    const error = await refusal({ backend: "openai", env: { OPENAI_API_KEY: "k" } });
    expect(error.code).toBe("USAGE");
    expect(error.hint).toContain("--judge-model");
  });

  it("needs OPENAI_API_KEY for OpenAI's own API but not for a local endpoint", async () => {
    const error = await refusal({ backend: "openai", model: "gpt-4.1", env: {} });
    expect(error.code).toBe("NO_CREDENTIALS");
    expect(error.message).toContain("OPENAI_API_KEY");
    const local = await createJudge({
      backend: "openai",
      model: "llama",
      env: { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" },
    });
    expect([local.backend, local.model, local.simulated]).toEqual(["openai", "llama", false]);
  });

  it("needs a simulator URL for the sim backend", async () => {
    const error = await refusal({ backend: "sim" });
    expect(error.code).toBe("USAGE");
  });

  it("refuses the claude-code backend without any Claude Code login", async () => {
    if (process.platform === "darwin") return; // the Keychain may hold a login
    const error = await refusal({
      backend: "claude-code",
      env: { PATH: process.env.PATH ?? "", HOME: home },
    });
    expect(error.code).toBe("NO_CREDENTIALS");
  });

  it("refuses a claude binary that does not exist", async () => {
    const error = await refusal({
      backend: "claude-code",
      binary: join(home, "no-claude"),
      simulatorUrl: "http://x",
    });
    expect(error.code).toBe("AGENT_UNAVAILABLE");
  });

  it("rejects an unknown backend", async () => {
    const error = await refusal({ backend: "gemini" as JudgeOptions["backend"] });
    expect(error.code).toBe("USAGE");
    expect(error.hint).toContain("claude-code, anthropic, openai, sim");
  });

  it("keeps a claude-code prompt too long for a command line from being spawned", async () => {
    const judge = await createJudge({ backend: "claude-code", simulatorUrl: "http://127.0.0.1:1" });
    const error = await judge.complete({ system: "s", prompt: "x".repeat(200_000) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).message).toContain("more than a command line takes");
  });
});
