import { chmod, lstat, mkdir, mkdtemp, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenCodeAgent, OPENCODE_DEFAULT_MODEL } from "../../../src/agents/opencode/agent.js";
import { openCodeArgs } from "../../../src/agents/opencode/args.js";
import { homeFiles, permissionMode, runConfig } from "../../../src/agents/opencode/environment.js";
import { RIPGREP_WARNING } from "../../../src/agents/opencode/ripgrep.js";
import { costOf } from "../../../src/agents/pricing.js";

// A fake opencode: a shell script that records its arguments, stdin and environment and prints a recorded stream.
let dir: string;
let binary: string;
let rgBin: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-opencode-agent-"));
  const pkg = join(dir, "pkg");
  await mkdir(join(pkg, "bin"), { recursive: true });
  await writeFile(
    join(pkg, "package.json"),
    JSON.stringify({ name: "opencode-linux-x64", version: "1.18.33" }),
  );
  const part = (type: string, extra: object) => ({
    type,
    sessionID: "ses_1",
    part: { messageID: "msg_1", type, ...extra },
  });
  const stream = [
    part("step_start", {}),
    part("text", { text: "Done." }),
    part("step_finish", {
      reason: "stop",
      tokens: { total: 160, input: 100, output: 10, reasoning: 0, cache: { write: 0, read: 50 } },
    }),
  ];
  await writeFile(join(dir, "stream.jsonl"), `${stream.map((l) => JSON.stringify(l)).join("\n")}\n`);
  binary = join(pkg, "bin", "opencode");
  await writeFile(
    binary,
    [
      "#!/bin/sh",
      `D='${dir}'`,
      'printf "%s\\n" "$@" > "$D/args.txt"',
      'cat > "$D/stdin.txt"',
      'echo "$PWD|$HOME|$OPENCODE_CONFIG|$ANTHROPIC_API_KEY|$OPENCODE_DISABLE_MODELS_FETCH|$SUITE_SETTING" > "$D/env.txt"',
      'cat "$D/stream.jsonl"',
      "",
    ].join("\n"),
  );
  await chmod(binary, 0o755);
  rgBin = join(dir, "rg-bin");
  await mkdir(rgBin);
  await writeFile(join(rgBin, "rg"), "#!/bin/sh\n", { mode: 0o755 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let runs = 0;
async function workspace(): Promise<{ cwd: string; home: string }> {
  const root = join(dir, `run-${++runs}`);
  await mkdir(join(root, "work", ".agents", "skills", "haiku"), { recursive: true });
  await writeFile(join(root, "work", ".agents", "skills", "haiku", "SKILL.md"), "---\nname: haiku\n---\n");
  await mkdir(join(root, "home"), { recursive: true });
  return { cwd: join(root, "work"), home: join(root, "home") };
}
const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 50, cacheWriteTokens: 0 };

describe("createOpenCodeAgent (a fake opencode binary)", () => {
  it("a simulated run: the prompt on stdin, the simulator's provider, the run's facts in its init", async () => {
    const agent = await createOpenCodeAgent({
      binary,
      simulatorUrl: "http://127.0.0.1:9",
      env: {
        PATH: `${rgBin}:${process.env.PATH}`,
        HOME: join(dir, "user"),
        ANTHROPIC_API_KEY: "fake-anthropic-1",
        SUITE_SETTING: "on",
      },
      passEnv: ["SUITE_SETTING"],
    });
    expect(agent).toMatchObject({
      name: "opencode",
      mode: permissionMode("eval"),
      version: "1.18.33",
      skillsFolder: ".agents/skills",
      binary,
      simulated: true,
    });
    expect(agent.warnings).toBeUndefined();
    expect(agent.redactor.names).toEqual([]);
    const { cwd, home } = await workspace();
    const ran = await agent.run({
      prompt: "Write a haiku",
      cwd,
      home,
      timeoutMs: 60_000,
      tools: "read-only",
      systemPrompt: "Be brief.",
    });
    expect((await readFile(join(dir, "args.txt"), "utf8")).trim().split("\n")).toEqual(
      openCodeArgs({ cwd, model: "skillgym-sim/skillgym-sim" }),
    );
    expect(await readFile(join(dir, "stdin.txt"), "utf8")).toBe("Write a haiku");
    expect(await readFile(join(dir, "env.txt"), "utf8")).toBe(
      `${cwd}|${home}|${homeFiles(home).config}||1|on\n`,
    );
    expect(JSON.parse(await readFile(homeFiles(home).config, "utf8"))).toEqual(
      runConfig({
        tools: "read-only",
        instructions: homeFiles(home).instructions,
        simulator: { url: "http://127.0.0.1:9", model: "skillgym-sim" },
      }),
    );
    // rg is on PATH: OpenCode finds it itself, nothing is linked.
    await expect(lstat(homeFiles(home).ripgrep)).rejects.toThrow();
    expect(ran.outcome).toBe("success");
    expect(ran.init).toEqual({
      kind: "init",
      model: "skillgym-sim",
      tools: [],
      skills: ["haiku", "customize-opencode"],
      sessionId: "ses_1",
      version: "1.18.33",
      mode: permissionMode("read-only"),
    });
    expect(ran.result).toEqual({
      kind: "result",
      isError: false,
      subtype: "stop",
      text: "Done.",
      numTurns: 1,
      usage,
      costUsd: 0,
    });
  });

  it("a real run with a provider's model: its key passed and masked, ripgrep from the user's cache linked, the model's price", async () => {
    const cache = join(dir, "cache");
    await mkdir(join(cache, "opencode", "bin"), { recursive: true });
    await writeFile(join(cache, "opencode", "bin", "rg"), "#!/bin/sh\n", { mode: 0o755 });
    const agent = await createOpenCodeAgent({
      binary,
      env: {
        PATH: process.env.PATH,
        HOME: join(dir, "user"),
        XDG_CACHE_HOME: cache,
        ANTHROPIC_API_KEY: "fake-anthropic-key-1",
      },
    });
    expect(agent.simulated).toBe(false);
    expect(agent.redactor.names).toEqual(["ANTHROPIC_API_KEY"]);
    const { cwd, home } = await workspace();
    const ran = await agent.run({
      prompt: "Write",
      cwd,
      home,
      timeoutMs: 60_000,
      model: "anthropic/claude-sonnet-4-5",
    });
    expect((await readFile(join(dir, "args.txt"), "utf8")).trim().split("\n")).toEqual(
      openCodeArgs({ cwd, model: "anthropic/claude-sonnet-4-5" }),
    );
    expect(await readFile(join(dir, "env.txt"), "utf8")).toBe(
      `${cwd}|${home}|${homeFiles(home).config}|fake-anthropic-key-1||\n`,
    );
    expect(await readlink(homeFiles(home).ripgrep)).toBe(join(cache, "opencode", "bin", "rg"));
    expect(ran.init).toMatchObject({ model: "anthropic/claude-sonnet-4-5", mode: permissionMode("eval") });
    expect(ran.result?.costUsd).toBe(costOf("claude-sonnet-4-5", usage));
    expect(ran.result?.costUsd).toBeGreaterThan(0);
  });

  it("warns when no ripgrep was found: OpenCode would download its own in every run", async () => {
    const env = { PATH: process.env.PATH, HOME: join(dir, "user"), OPENAI_API_KEY: "fake-openai-key-1" };
    const agent = await createOpenCodeAgent({ binary, env }, async () => undefined);
    expect(agent.warnings).toEqual([RIPGREP_WARNING]);
    const { cwd, home } = await workspace();
    expect((await agent.run({ prompt: "Write", cwd, home, timeoutMs: 60_000 })).outcome).toBe("success");
    await expect(lstat(homeFiles(home).ripgrep)).rejects.toThrow();
  });

  it("a real run without a model: OpenCode's own default, named so, and no price", async () => {
    const agent = await createOpenCodeAgent({
      binary,
      env: {
        PATH: `${rgBin}:${process.env.PATH}`,
        HOME: join(dir, "user"),
        OPENAI_API_KEY: "fake-openai-key-1",
      },
    });
    const { cwd, home } = await workspace();
    const ran = await agent.run({ prompt: "Write", cwd, home, timeoutMs: 60_000 });
    expect((await readFile(join(dir, "args.txt"), "utf8")).trim().split("\n")).toEqual(openCodeArgs({ cwd }));
    expect(ran.init?.model).toBe(OPENCODE_DEFAULT_MODEL);
    expect(OPENCODE_DEFAULT_MODEL).toBe("opencode-default");
    expect(ran.result).toStrictEqual({
      kind: "result",
      isError: false,
      subtype: "stop",
      text: "Done.",
      numTurns: 1,
      usage,
    });
  });
});
