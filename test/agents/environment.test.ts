import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateClaude } from "../../src/agents/claude-code/binary.js";
import { findCredentials } from "../../src/agents/claude-code/credentials.js";
import { childEnvironment, prepareHome } from "../../src/agents/claude-code/environment.js";
import { SkillgymError } from "../../src/errors.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-env-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const parent: NodeJS.ProcessEnv = {
  PATH: "/usr/bin",
  HOME: "/home/user",
  CLAUDECODE: "1",
  CLAUDE_CODE_ENTRYPOINT: "cli",
  CLAUDE_CONFIG_DIR: "/home/user/.claude-custom",
  CLAUDE_CODE_SSE_PORT: "1234",
  ANTHROPIC_API_KEY: "sk-ant-real",
  CLAUDE_CODE_OAUTH_TOKEN: "oauth-real",
  ANTHROPIC_MODEL: "claude-opus",
};

async function failure(promise: Promise<unknown>): Promise<SkillgymError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

describe("childEnvironment", () => {
  it("points the child at the run's home and drops the parent's Claude Code session", () => {
    const home = join(dir, "home-a");
    const env = childEnvironment({
      base: parent,
      home,
      credentials: { kind: "env", variable: "ANTHROPIC_API_KEY" },
    });
    expect(env.CLAUDECODE).toBeUndefined();
    expect(env.CLAUDE_CODE_ENTRYPOINT).toBeUndefined();
    expect(env.CLAUDE_CODE_SSE_PORT).toBeUndefined();
    expect(env.HOME).toBe(home);
    expect(env.USERPROFILE).toBe(home);
    expect(env.CLAUDE_CONFIG_DIR).toBe(join(home, ".claude"));
    expect(env.ANTHROPIC_API_KEY).toBe("sk-ant-real");
    expect(env.CLAUDE_CODE_OAUTH_TOKEN).toBe("oauth-real");
    expect(env.PATH).toBe("/usr/bin");
    expect(env.ANTHROPIC_BASE_URL).toBeUndefined();
    expect(parent.CLAUDECODE).toBe("1");
    expect(parent.HOME).toBe("/home/user");
  });

  it("sends the child to the simulator with a dummy key and no other login", () => {
    const home = join(dir, "home-b");
    const env = childEnvironment({
      base: parent,
      home,
      credentials: { kind: "simulator" },
      simulatorUrl: "http://127.0.0.1:4567",
    });
    expect(env.ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:4567");
    expect(env.ANTHROPIC_API_KEY).toBeTruthy();
    expect(env.ANTHROPIC_API_KEY).not.toBe("sk-ant-real");
    expect(env.CLAUDE_CODE_OAUTH_TOKEN).toBeUndefined();
    expect(env.ANTHROPIC_MODEL).toBeUndefined();
    expect(env.CLAUDE_CONFIG_DIR).toBe(join(home, ".claude"));
    expect(env.CLAUDECODE).toBeUndefined();
  });
});

describe("childEnvironment's own settings", () => {
  it("turns off Claude Code's non-essential traffic and its autoupdater, and leaves its retries alone", () => {
    const env = childEnvironment({
      base: { ...parent, CLAUDE_CODE_MAX_RETRIES: "5" },
      home: join(dir, "home-e"),
      credentials: { kind: "env", variable: "ANTHROPIC_API_KEY" },
    });
    expect(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC).toBe("1");
    expect(env.DISABLE_AUTOUPDATER).toBe("1");
    expect(env.CLAUDE_CODE_MAX_RETRIES).toBe("5");
  });

  it("leaves the simulator's faults to skillgym's retries: Claude Code retries none", () => {
    const env = childEnvironment({
      base: { ...parent, CLAUDE_CODE_MAX_RETRIES: "5" },
      home: join(dir, "home-f"),
      credentials: { kind: "simulator" },
      simulatorUrl: "http://127.0.0.1:4567",
    });
    expect(env.CLAUDE_CODE_MAX_RETRIES).toBe("0");
    expect(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC).toBe("1");
    expect(env.DISABLE_AUTOUPDATER).toBe("1");
  });
});

describe("prepareHome", () => {
  it("creates .claude and copies an OAuth credentials file into it", async () => {
    const source = join(dir, "source-creds.json");
    await writeFile(source, '{"claudeAiOauth":{}}');
    const home = join(dir, "home-c");
    await prepareHome(home, { kind: "oauth-file", file: source });
    expect(await readFile(join(home, ".claude", ".credentials.json"), "utf8")).toBe('{"claudeAiOauth":{}}');
    const bare = join(dir, "home-d");
    await prepareHome(bare, { kind: "env", variable: "ANTHROPIC_API_KEY" });
    await expect(readFile(join(bare, ".claude", ".credentials.json"))).rejects.toThrow();
  });
});

describe("findCredentials", () => {
  it("finds a key in the environment", async () => {
    const home = join(dir, "empty-home-1");
    expect(await findCredentials({ HOME: home, ANTHROPIC_API_KEY: "sk" })).toEqual({
      kind: "env",
      variable: "ANTHROPIC_API_KEY",
    });
    expect(await findCredentials({ HOME: home, CLAUDE_CODE_OAUTH_TOKEN: "t" })).toEqual({
      kind: "env",
      variable: "CLAUDE_CODE_OAUTH_TOKEN",
    });
  });

  it("finds .credentials.json under HOME/.claude, or under CLAUDE_CONFIG_DIR", async () => {
    const home = join(dir, "logged-in-home");
    await mkdir(join(home, ".claude"), { recursive: true });
    await writeFile(join(home, ".claude", ".credentials.json"), "{}");
    expect(await findCredentials({ HOME: home })).toEqual({
      kind: "oauth-file",
      file: join(home, ".claude", ".credentials.json"),
    });
    const config = join(dir, "custom-config");
    await mkdir(config, { recursive: true });
    await writeFile(join(config, ".credentials.json"), "{}");
    expect(await findCredentials({ HOME: join(dir, "nobody"), CLAUDE_CONFIG_DIR: config })).toEqual({
      kind: "oauth-file",
      file: join(config, ".credentials.json"),
    });
  });

  it("fails with NO_CREDENTIALS when nothing is found", async () => {
    const error = await failure(
      findCredentials({ HOME: join(dir, "empty-home-2"), ANTHROPIC_API_KEY: "" }, "linux"),
    );
    expect(error.code).toBe("NO_CREDENTIALS");
    expect(error.hint).toBeTruthy();
  });

  it("says no login was found and how to log in", async () => {
    const error = await failure(findCredentials({ HOME: join(dir, "empty-home-3") }, "win32"));
    expect(error.message).toBe("no credentials for Claude Code were found");
    expect(error.hint).toBe(
      "log in with `claude` (or set ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN); use --simulate for an offline dry run",
    );
  });

  it("takes the Keychain's login on macOS when no variable or file holds one", async () => {
    expect(await findCredentials({ HOME: join(dir, "empty-home-4") }, "darwin")).toEqual({
      kind: "keychain",
    });
    expect(
      await findCredentials({ HOME: join(dir, "empty-home-4"), ANTHROPIC_API_KEY: "sk" }, "darwin"),
    ).toEqual({
      kind: "env",
      variable: "ANTHROPIC_API_KEY",
    });
  });
});

describe("locateClaude", () => {
  it("fails with AGENT_UNAVAILABLE for an explicit path that does not exist", async () => {
    const missing = join(dir, "no", "claude");
    const error = await failure(locateClaude(missing));
    expect(error.code).toBe("AGENT_UNAVAILABLE");
    expect(error.message).toContain(missing);
  });

  it("returns an explicit path that exists", async () => {
    const fake = join(dir, "my-claude");
    await writeFile(fake, "#!/bin/sh\n");
    expect(await locateClaude(fake)).toBe(fake);
  });

  it("finds the binary installed with @anthropic-ai/claude-code", async () => {
    const found = await locateClaude(undefined, { PATH: "" });
    expect(found).toMatch(/@anthropic-ai[\\/]claude-code/);
  });
});
