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

  it("refuses the codex and gemini backends without their credentials, as their agents do", async () => {
    const codex = await refusal({
      backend: "codex",
      env: { PATH: process.env.PATH ?? "", HOME: home, CODEX_HOME: home },
    });
    expect(codex.code).toBe("NO_CREDENTIALS");
    expect(codex.message).toContain("Codex");
    const gemini = await refusal({ backend: "gemini", env: { PATH: process.env.PATH ?? "", HOME: home } });
    expect(gemini.code).toBe("NO_CREDENTIALS");
    expect(gemini.message).toContain("Gemini");
  });

  it("builds the codex and gemini backends under the simulator: no credentials, the sim's model, files read in place", async () => {
    for (const backend of ["codex", "gemini"] as const) {
      const judge = await createJudge({
        backend,
        simulatorUrl: "http://127.0.0.1:1",
        env: { PATH: process.env.PATH ?? "", HOME: home },
      });
      expect([judge.backend, judge.model, judge.simulated, judge.readsWorkspace]).toEqual([
        backend,
        "skillgym-sim",
        true,
        true,
      ]);
    }
    const api = await createJudge({ backend: "sim", simulatorUrl: "http://127.0.0.1:1" });
    expect(api.readsWorkspace).toBeFalsy();
  });

  it("refuses a binary of a codex or gemini judge that does not exist", async () => {
    for (const backend of ["codex", "gemini"] as const) {
      const error = await refusal({ backend, binary: join(home, `no-${backend}`), simulatorUrl: "http://x" });
      expect(error.code).toBe("AGENT_UNAVAILABLE");
    }
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
    const error = await refusal({ backend: "bard" as JudgeOptions["backend"] });
    expect(error.code).toBe("USAGE");
    expect(error.hint).toContain("claude-code, codex, gemini, opencode, copilot, anthropic, openai, sim");
  });

  it("keeps an agent judge's prompt too long for a command line from being spawned", async () => {
    for (const [backend, who] of [
      ["claude-code", "Claude Code"],
      ["codex", "Codex"],
      ["gemini", "Gemini CLI"],
    ] as const) {
      const judge = await createJudge({ backend, simulatorUrl: "http://127.0.0.1:1" });
      const error = await judge
        .complete({ system: "s", prompt: "x".repeat(200_000) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JudgeError);
      expect((error as JudgeError).message).toContain("more than a command line takes");
      expect((error as JudgeError).message).toContain(`let ${who} read the run's files`);
    }
  });
});
