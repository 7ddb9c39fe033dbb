import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent, AgentRunRequest } from "../../../src/agents/agent.js";
import { defaultAllowedTools } from "../../../src/agents/claude-code/args.js";
import { createClaudeCodeAgent } from "../../../src/agents/index.js";
import { SIM_MODEL } from "../../../src/contracts/sim-model.js";

// The claude-code adapter on a recording stand-in for `claude`: a shell script, installed as npm would install the
// real one (a package.json two folders up), that writes the arguments and environment it was started with into the
// run's home and ends with a result line.
const RECORDER = `#!/bin/sh
for arg in "$@"; do printf '%s\\0' "$arg"; done > "$HOME/argv"
env > "$HOME/env"
echo '{"type":"result","subtype":"success","is_error":false,"result":"done"}'
`;

let dir: string;
let binary: string;
let runs = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-claude-agent-"));
  await mkdir(join(dir, "pkg", "bin"), { recursive: true });
  await writeFile(
    join(dir, "pkg", "package.json"),
    JSON.stringify({ name: "@anthropic-ai/claude-code", version: "9.8.7" }),
  );
  binary = join(dir, "pkg", "bin", "claude");
  await writeFile(binary, RECORDER);
  await chmod(binary, 0o755);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Started {
  argv: string[];
  env: Record<string, string>;
}

async function started(agent: Agent, request: Partial<AgentRunRequest> = {}): Promise<Started> {
  const home = join(dir, `home-${++runs}`);
  const cwd = join(dir, `cwd-${runs}`);
  await mkdir(cwd, { recursive: true });
  const result = await agent.run({ prompt: "hello", cwd, home, timeoutMs: 20_000, ...request });
  expect(result.outcome).toBe("success");
  const argv = (await readFile(join(home, "argv"), "utf8")).split("\0").slice(0, -1);
  const env = Object.fromEntries(
    (await readFile(join(home, "env"), "utf8"))
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  return { argv, env };
}

const flagValue = (argv: string[], flag: string) =>
  argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined;

const parentEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  ANTHROPIC_API_KEY: "sk-ant-parent-key",
  SUITE_TOKEN: "suite-value",
  UNLISTED: "kept-out",
};

describe("the claude-code adapter on a simulator", () => {
  it("runs the binary with the simulator's model, address and dummy key, the suite's variables passed", async () => {
    const agent = await createClaudeCodeAgent({
      binary,
      simulatorUrl: "http://127.0.0.1:4567",
      env: parentEnv,
      passEnv: ["SUITE_TOKEN"],
    });
    expect(agent.simulated).toBe(true);
    expect(agent.apiBaseUrl).toBe("http://127.0.0.1:4567");
    const { argv, env } = await started(agent);
    expect(argv.slice(0, 2)).toEqual(["-p", "hello"]);
    expect(flagValue(argv, "--model")).toBe(SIM_MODEL);
    expect(flagValue(argv, "--allowedTools")).toBe(defaultAllowedTools.join(" "));
    expect(env.ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:4567");
    expect(env.ANTHROPIC_API_KEY).toBe("sk-skillgym-simulator");
    expect(env.CLAUDE_CODE_MAX_RETRIES).toBe("0");
    expect(env.SUITE_TOKEN).toBe("suite-value");
    expect(env.UNLISTED).toBeUndefined();
  });

  it("asks for the request's model, approves the tools it was given, and sends requests to a recording proxy", async () => {
    const agent = await createClaudeCodeAgent({
      binary,
      simulatorUrl: "http://127.0.0.1:4567",
      env: parentEnv,
      allowedTools: ["Read", "Skill"],
    });
    const { argv, env } = await started(agent, {
      model: "claude-haiku-4-5",
      apiBaseUrl: "http://127.0.0.1:9999",
    });
    expect(flagValue(argv, "--model")).toBe("claude-haiku-4-5");
    expect(flagValue(argv, "--allowedTools")).toBe("Read Skill");
    expect(env.ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:9999");
    expect(env.SUITE_TOKEN).toBeUndefined();
  });
});

describe("the claude-code adapter on a real login", () => {
  it("names no model of its own and talks to Anthropic's API with the parent's key", async () => {
    const agent = await createClaudeCodeAgent({ binary, env: parentEnv });
    expect(agent.simulated).toBe(false);
    expect(agent.apiBaseUrl).toBe("https://api.anthropic.com");
    const { argv, env } = await started(agent);
    expect(argv).not.toContain("--model");
    expect(env.ANTHROPIC_API_KEY).toBe("sk-ant-parent-key");
    expect(env.ANTHROPIC_BASE_URL).toBeUndefined();
    expect(env.CLAUDE_CODE_MAX_RETRIES).toBeUndefined();
  });

  it("takes the parent's API address when it names one", async () => {
    const agent = await createClaudeCodeAgent({
      binary,
      env: { ...parentEnv, ANTHROPIC_BASE_URL: "https://gateway.example" },
    });
    expect(agent.apiBaseUrl).toBe("https://gateway.example");
  });
});

describe("what the claude-code adapter says about itself", () => {
  it("gives the version npm installed, the skills folder, and that it continues conversations", async () => {
    const agent = await createClaudeCodeAgent({ binary, simulatorUrl: "http://127.0.0.1:4567" });
    expect(agent).toMatchObject({
      name: "claude-code",
      version: "9.8.7",
      skillsFolder: ".claude/skills",
      binary,
      continuesConversations: true,
    });
  });

  it("gives no version for a binary npm did not install", async () => {
    const stray = join(dir, "stray-claude");
    await writeFile(stray, RECORDER);
    await chmod(stray, 0o755);
    const agent = await createClaudeCodeAgent({ binary: stray, simulatorUrl: "http://127.0.0.1:4567" });
    expect(agent).not.toHaveProperty("version");
  });
});
