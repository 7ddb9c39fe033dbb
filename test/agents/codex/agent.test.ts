import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODEX_DEFAULT_MODEL, createCodexAgent } from "../../../src/agents/codex/agent.js";
import { codexArgs } from "../../../src/agents/codex/args.js";
import { codexVersion } from "../../../src/agents/codex/binary.js";
import { costOf } from "../../../src/agents/pricing.js";

// A fake codex: a shell script that records its arguments and environment and prints a recorded stream.
let dir: string;
let binary: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-codex-agent-"));
  const pkg = join(dir, "pkg");
  await mkdir(join(pkg, "bin"), { recursive: true });
  await writeFile(
    join(pkg, "package.json"),
    JSON.stringify({ name: "@openai/codex", version: "0.169.0-alpha.2" }),
  );
  const stream = [
    { type: "thread.started", thread_id: "th-1" },
    { type: "item.completed", item: { id: "i1", type: "agent_message", text: "Done." } },
    { type: "turn.completed", usage: { input_tokens: 1000, cached_input_tokens: 200, output_tokens: 50 } },
  ];
  await writeFile(join(dir, "stream.jsonl"), `${stream.map((l) => JSON.stringify(l)).join("\n")}\n`);
  binary = join(pkg, "bin", "codex");
  await writeFile(
    binary,
    [
      "#!/bin/sh",
      `D='${dir}'`,
      'printf "%s\\n" "$@" > "$D/args.txt"',
      'echo "$HOME|$CODEX_HOME|$OPENAI_BASE_URL|$SKILLGYM_SIM_KEY|$CODEX_API_KEY" > "$D/env.txt"',
      'printf "%s" "$SUITE_SETTING" > "$D/suite.txt"',
      // Codex's sandbox leaves its mount points behind in a workspace that had none.
      "mkdir -p .git .aws .codex && touch .codex/kept",
      'cat "$D/stream.jsonl"',
      "",
    ].join("\n"),
  );
  await chmod(binary, 0o755);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let runs = 0;
async function workspace(): Promise<{ cwd: string; home: string }> {
  const root = join(dir, `run-${++runs}`);
  await mkdir(join(root, "work", ".agents", "skills", "haiku"), { recursive: true });
  await mkdir(join(root, "home"), { recursive: true });
  return { cwd: join(root, "work"), home: join(root, "home") };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe("createCodexAgent (a fake codex binary)", () => {
  it("reads the version of the package the binary belongs to, without its pre-release tag", async () => {
    expect(await codexVersion(binary)).toBe("0.169.0");
  });

  it("a simulated run: the simulator's model and key, the run's facts in its init, the mount points it left removed", async () => {
    const agent = await createCodexAgent({
      binary,
      simulatorUrl: "http://127.0.0.1:9/",
      env: { PATH: process.env.PATH, HOME: join(dir, "user") },
    });
    expect(agent).toMatchObject({
      name: "codex",
      mode: "sandbox workspace-write, approval never",
      version: "0.169.0",
      skillsFolder: ".agents/skills",
      binary,
      simulated: true,
      apiBaseUrl: "http://127.0.0.1:9/v1",
    });
    const { cwd, home } = await workspace();
    const ran = await agent.run({
      prompt: "Write",
      cwd,
      home,
      timeoutMs: 60_000,
      tools: "read-only",
      apiBaseUrl: "http://127.0.0.1:8/v1",
    });
    expect((await readFile(join(dir, "args.txt"), "utf8")).trim().split("\n")).toEqual(
      codexArgs({
        prompt: "Write",
        model: "skillgym-sim",
        tools: "read-only",
        simulatorUrl: "http://127.0.0.1:9/",
        apiBaseUrl: "http://127.0.0.1:8/v1",
      }),
    );
    expect(await readFile(join(dir, "env.txt"), "utf8")).toBe(
      `${home}|${join(home, ".codex")}||sk-skillgym-simulator|\n`,
    );
    expect(ran.outcome).toBe("success");
    expect(ran.init).toEqual({
      kind: "init",
      model: "skillgym-sim",
      tools: ["exec_command", "apply_patch"],
      skills: ["haiku"],
      sessionId: "th-1",
      version: "0.169.0",
      mode: "sandbox read-only, approval never",
    });
    expect(ran.result).toEqual({
      kind: "result",
      isError: false,
      subtype: "success",
      text: "Done.",
      numTurns: 1,
      usage: { inputTokens: 800, outputTokens: 50, cacheReadTokens: 200, cacheWriteTokens: 0 },
      costUsd: 0,
    });
    expect(await exists(join(cwd, ".git"))).toBe(false);
    expect(await exists(join(cwd, ".aws"))).toBe(false);
    expect(await exists(join(cwd, ".codex", "kept"))).toBe(true);
    expect(await exists(join(cwd, ".agents", "skills", "haiku"))).toBe(true);
  });

  it("a real run with a model: its key as CODEX_API_KEY, a run's own base URL, the model's price", async () => {
    const agent = await createCodexAgent({
      binary,
      env: {
        PATH: process.env.PATH,
        HOME: join(dir, "user"),
        OPENAI_API_KEY: "fake-openai-key-42",
        OPENAI_BASE_URL: "https://proxy.example/v1",
      },
    });
    expect(agent.apiBaseUrl).toBe("https://proxy.example/v1");
    // One value, masked under the first name it was given as.
    expect(agent.redactor.names).toEqual(["OPENAI_API_KEY"]);
    const { cwd, home } = await workspace();
    const ran = await agent.run({
      prompt: "Write",
      cwd,
      home,
      timeoutMs: 60_000,
      model: "gpt-5",
      apiBaseUrl: "http://127.0.0.1:7/v1",
    });
    expect(await readFile(join(dir, "env.txt"), "utf8")).toBe(
      `${home}|${join(home, ".codex")}|http://127.0.0.1:7/v1||fake-openai-key-42\n`,
    );
    expect(ran.init).toMatchObject({ model: "gpt-5", mode: "sandbox workspace-write, approval never" });
    const usage = { inputTokens: 800, outputTokens: 50, cacheReadTokens: 200, cacheWriteTokens: 0 };
    expect(ran.result?.costUsd).toBe(costOf("gpt-5", usage));
    expect(ran.result?.costUsd).toBeGreaterThan(0);
  });

  it("a real run without a model: Codex's own default, named so, and no price; the suite's variables passed on", async () => {
    const agent = await createCodexAgent({
      binary,
      env: {
        PATH: process.env.PATH,
        HOME: join(dir, "user"),
        CODEX_API_KEY: "fake-codex-key-42",
        SUITE_SETTING: "on",
      },
      passEnv: ["SUITE_SETTING"],
    });
    expect(agent.apiBaseUrl).toBe("https://api.openai.com/v1");
    const { cwd, home } = await workspace();
    const ran = await agent.run({
      prompt: "Write",
      cwd,
      home,
      timeoutMs: 60_000,
      apiBaseUrl: "http://127.0.0.1:7/v1",
    });
    expect(ran.init?.model).toBe(CODEX_DEFAULT_MODEL);
    expect(CODEX_DEFAULT_MODEL).toBe("codex-default");
    expect(ran.result && "costUsd" in ran.result).toBe(false);
    expect((await readFile(join(dir, "env.txt"), "utf8")).split("|")[2]).toBe("http://127.0.0.1:7/v1");
    expect(await readFile(join(dir, "suite.txt"), "utf8")).toBe("on");
  });
});
