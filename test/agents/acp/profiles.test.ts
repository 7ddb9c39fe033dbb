import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acpBuiltinSkills, acpEntry, createAcpCommandAgent } from "../../../src/agents/acp/entry.js";
import { geminiProfile } from "../../../src/agents/acp/gemini-profile.js";
import { genericProfile, programOf } from "../../../src/agents/acp/generic-profile.js";
import { geminiBuiltinSkills } from "../../../src/agents/gemini/builtin-skills.js";
import { childEnvironment, runSettings } from "../../../src/agents/gemini/environment.js";
import { skillRoots } from "../../../src/agents/gemini/skills.js";
import { qwenBuiltinSkills } from "../../../src/agents/qwen-code/skills.js";
import { SkillgymError } from "../../../src/errors.js";

let dir: string;
let gemini: string;
let goose: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-acp-profiles-"));
  // A fake Gemini CLI bundle: <pkg>/bundle/gemini.js, its package.json and its builtin/ skills folder.
  const pkg = join(dir, "gemini-cli");
  await mkdir(join(pkg, "bundle", "builtin", "skill-creator"), { recursive: true });
  await writeFile(
    join(pkg, "bundle", "builtin", "skill-creator", "SKILL.md"),
    "---\nname: skill-creator\n---\n",
  );
  await mkdir(join(pkg, "bundle", "builtin", "not-a-skill"), { recursive: true });
  await writeFile(
    join(pkg, "package.json"),
    JSON.stringify({ name: "@google/gemini-cli", version: "0.61.0" }),
  );
  gemini = join(pkg, "bundle", "gemini.js");
  await writeFile(gemini, "");
  const bin = join(dir, "bin");
  await mkdir(bin);
  goose = join(bin, "goose");
  await writeFile(goose, "#!/bin/sh\n", { mode: 0o755 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const setup = (home: string, tools: "eval" | "read-only" = "eval", model?: string) => ({
  home,
  cwd: "/ws",
  tools,
  model,
});

describe("geminiProfile", () => {
  const env = { PATH: "/usr/bin", GEMINI_API_KEY: "fake-gemini-key-123", SUITE: "s" };

  it("finds Gemini CLI where its own adapter does, and any other program by its path, naming Gemini CLI when missing", async () => {
    const bare = { PATH: join(dir, "empty"), GEMINI_API_KEY: "k" };
    // "gemini" is also found as skillgym's own Gemini CLI package, off PATH.
    const bundled = await geminiProfile(["gemini", "--acp"], { env: bare });
    expect(bundled.commandLine(setup("/h")).args).toEqual([expect.stringMatching(/gemini\.js$/), "--acp"]);
    await expect(
      geminiProfile([join(dir, "nope", "gemini.js"), "--acp"], { env: bare }),
    ).rejects.toMatchObject({
      hint: "install Gemini CLI, put it on PATH, or pass its path with --agent-bin",
    });
  });

  it("a real run: Gemini CLI's home and settings, its bundled skills and version, the model as a flag", async () => {
    const profile = await geminiProfile(["gemini", "--acp"], { binary: gemini, env, passEnv: ["SUITE"] });
    expect(profile.label).toBe("Gemini CLI over ACP (gemini --acp)");
    expect(profile.skillsFolder).toBe(".gemini/skills");
    expect(profile.builtinSkills).toEqual(["skill-creator"]);
    expect(profile.version).toBe("0.61.0");
    expect(profile.clientFs).toBe(false);
    expect(profile.sessionMode?.("read-only")).toBe("plan");
    expect(profile.sessionMode?.("eval")).toBeUndefined();
    expect(profile.commandLine(setup("/h", "eval", "gemini-2.5-pro"))).toEqual({
      command: process.execPath,
      args: [gemini, "--acp", "-m", "gemini-2.5-pro"],
    });
    expect(profile.commandLine(setup("/h"))).toEqual({ command: process.execPath, args: [gemini, "--acp"] });
    expect(profile.environment(setup("/h"))).toEqual(
      childEnvironment({
        base: env,
        home: "/h",
        credentials: { kind: "env", variable: "GEMINI_API_KEY" },
        passEnv: ["SUITE"],
      }),
    );
    expect(profile.environment(setup("/h")).SUITE).toBe("s");
    expect(profile.secrets).toEqual([{ name: "GEMINI_API_KEY", value: "fake-gemini-key-123" }]);
    expect(await profile.skillRoots("/ws", "/h")).toEqual(skillRoots("/ws", "/h"));
    const home = join(dir, "gemini-home");
    await profile.prepare(setup(home, "read-only"));
    expect(JSON.parse(await readFile(join(home, ".gemini", "settings.json"), "utf8"))).toEqual(
      runSettings(false),
    );
    expect((await stat(join(home, "skillgym-policy.toml"))).isFile()).toBe(true);
  });

  it("under the simulator: the simulator's model unless the user's command names one", async () => {
    const sim = { binary: gemini, env: { PATH: "/usr/bin" }, simulatorUrl: "http://127.0.0.1:9" };
    const profile = await geminiProfile(["gemini", "--acp"], sim);
    expect(profile.commandLine(setup("/h")).args).toEqual([gemini, "--acp", "-m", "skillgym-sim"]);
    expect(profile.environment(setup("/h"))).toMatchObject({ GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:9" });
    for (const flags of [["-m", "mine"], ["--model", "mine"], ["--model=mine"]]) {
      const named = await geminiProfile(["gemini", "--acp", ...flags], sim);
      expect(named.commandLine(setup("/h", "eval", "other")).args).toEqual([gemini, "--acp", ...flags]);
    }
    const home = join(dir, "gemini-sim-home");
    await profile.prepare(setup(home));
    expect(JSON.parse(await readFile(join(home, ".gemini", "settings.json"), "utf8"))).toEqual(
      runSettings(true),
    );
  });

  it("a binary with no builtin folder has Gemini CLI's known built-in skills and no version", async () => {
    const profile = await geminiProfile(["gemini"], { binary: goose, env });
    expect(profile.builtinSkills).toBe(geminiBuiltinSkills);
    expect(profile.version).toBeUndefined();
    expect(profile.commandLine(setup("/h"))).toEqual({ command: goose, args: [] });
  });

  it("a program path is taken as given; a real run without a key is refused", async () => {
    const profile = await geminiProfile([gemini, "--acp"], { env });
    expect(profile.commandLine(setup("/h")).args[0]).toBe(gemini);
    await expect(
      geminiProfile(["gemini", "--acp"], { binary: gemini, env: { PATH: "/usr/bin" } }),
    ).rejects.toMatchObject({
      code: "NO_CREDENTIALS",
    });
  });
});

describe("genericProfile and programOf", () => {
  it("finds a bare program on PATH, takes a path as given, and says what is missing", async () => {
    expect(await programOf("goose", { PATH: join(dir, "bin") }, "Goose")).toBe(goose);
    expect(await programOf(goose, { PATH: "" }, "Goose")).toBe(goose);
    const missing = await programOf("goose", { PATH: join(dir, "nothing") }, "Goose").catch(
      (e: unknown) => e,
    );
    expect(missing).toBeInstanceOf(SkillgymError);
    expect(missing).toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "goose was not found on PATH",
      hint: "install Goose, put it on PATH, or pass its path with --agent-bin",
    });
    await expect(programOf(join(dir, "bin", "nope"), {}, "Goose")).rejects.toMatchObject({
      message: `the agent binary ${join(dir, "bin", "nope")} does not exist`,
      hint: "install Goose, put it on PATH, or pass its path with --agent-bin",
    });
    await expect(programOf("sub\\goose", {}, "Goose")).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "the agent binary sub\\goose does not exist",
    });
  });

  it("an unknown agent: its own home, only the allowed and named variables, skills in .agents/skills", async () => {
    const env = { PATH: join(dir, "bin"), OPENAI_API_KEY: "fake-openai-key-1", SECRET: "s" };
    const profile = await genericProfile(["goose", "acp", "--x"], { env, passEnv: ["OPENAI_API_KEY"] });
    expect(profile.label).toBe("goose acp --x");
    expect(profile.skillsFolder).toBe(".agents/skills");
    expect(profile.builtinSkills).toEqual([]);
    expect(profile.modelOverAcp).toBe(true);
    expect(profile.commandLine(setup("/h"))).toEqual({ command: goose, args: ["acp", "--x"] });
    expect(profile.environment(setup("/h"))).toEqual({
      PATH: join(dir, "bin"),
      OPENAI_API_KEY: "fake-openai-key-1",
      HOME: "/h",
      USERPROFILE: "/h",
      TMPDIR: join("/h", "tmp"),
    });
    expect(profile.secrets).toEqual([{ name: "OPENAI_API_KEY", value: "fake-openai-key-1" }]);
    const ws = join(dir, "ws");
    await mkdir(ws, { recursive: true });
    const roots = await profile.skillRoots(ws, "/h");
    expect(roots).toContain(join(ws, ".agents", "skills"));
    expect(roots.at(-1)).toBe(join("/h", ".agents", "skills"));
    const home = join(dir, "generic-home");
    await profile.prepare(setup(home));
    expect((await stat(join(home, "tmp"))).isDirectory()).toBe(true);
    const given = await genericProfile(["goose"], { env: {}, binary: "/opt/goose" });
    expect(given.commandLine(setup("/h")).command).toBe("/opt/goose");
  });

  it("refuses --simulate for an agent it cannot point at the simulator", async () => {
    await expect(
      genericProfile(["goose", "acp"], { env: {}, simulatorUrl: "http://127.0.0.1:9" }),
    ).rejects.toMatchObject({
      code: "USAGE",
      message: "--agent acp:goose acp cannot run under --simulate",
      hint:
        "skillgym knows how to point only some ACP agents at its simulator: acp:gemini …, acp:qwen … and " +
        "--agent qwen-code; run this one against its real model, without --simulate",
    });
  });
});

describe("the acp: entry", () => {
  it("makes each known program's profile, named acp-<program>", async () => {
    const env = {
      PATH: join(dir, "bin"),
      GEMINI_API_KEY: "fake-gemini-key-123",
      OPENAI_API_KEY: "fake-openai",
    };
    const viaGemini = await createAcpCommandAgent(`acp:${gemini} --acp`, { env });
    expect(viaGemini).toMatchObject({
      name: "acp-gemini",
      skillsFolder: ".gemini/skills",
      version: "0.61.0",
    });
    expect(viaGemini.binary).toBe(gemini);
    const viaGoose = await createAcpCommandAgent("acp:goose acp", { env });
    expect(viaGoose).toMatchObject({
      name: "acp-goose",
      skillsFolder: ".agents/skills",
      binary: goose,
      simulated: false,
    });
    expect(viaGoose.mode).toBe(
      "ACP client: goose acp; permissions allowed inside the workspace, refused outside it and for the web",
    );
    const viaQwen = await createAcpCommandAgent("acp:qwen --acp", { env, binary: goose });
    expect(viaQwen).toMatchObject({ name: "acp-qwen", skillsFolder: ".qwen/skills" });
    const viaQwenCode = await createAcpCommandAgent("acp:/opt/qwen-code.mjs --acp", { env, binary: goose });
    expect(viaQwenCode).toMatchObject({ name: "acp-qwen-code", skillsFolder: ".qwen/skills" });
    // A script run by a Node other than skillgym's (another install on PATH) is still named by the script.
    const viaOtherNode = await createAcpCommandAgent("acp:node /opt/agent.mjs --acp", {
      env,
      binary: "/opt/node-22/bin/node",
    });
    expect(viaOtherNode.binary).toBe("/opt/agent.mjs");
    // Gemini CLI's bundle runs under skillgym's own Node, whatever that Node's file is named ("nodejs" on some systems).
    const execPath = process.execPath;
    try {
      process.execPath = "/usr/bin/nodejs";
      const viaBundle = await createAcpCommandAgent("acp:gemini --acp", { env, binary: gemini });
      expect(viaBundle.binary).toBe(gemini);
    } finally {
      process.execPath = execPath;
    }
    // A program merely named like node is the agent itself.
    for (const program of ["nodemon", "mynode"])
      expect(
        (await createAcpCommandAgent(`acp:${program} /opt/agent.mjs`, { env, binary: `/opt/bin/${program}` }))
          .binary,
      ).toBe(`/opt/bin/${program}`);
  });

  it("the recorded agents' built-in skills, and --agent acp alone refused", () => {
    expect(acpBuiltinSkills("acp-gemini")).toBe(geminiBuiltinSkills);
    expect(acpBuiltinSkills("acp-qwen")).toBe(qwenBuiltinSkills);
    expect(acpBuiltinSkills("acp-qwen-code")).toBe(qwenBuiltinSkills);
    expect(acpBuiltinSkills("acp-gemini.js")).toBe(geminiBuiltinSkills);
    expect(acpBuiltinSkills("acp-goose")).toEqual([]);
    expect(acpBuiltinSkills("acpgemini")).toBe(geminiBuiltinSkills);
    // Only the leading "acp-" goes, and only a trailing script extension.
    expect(acpBuiltinSkills("qwen-acp-code")).toEqual([]);
    expect(acpBuiltinSkills("acp-qwen.js-code")).toEqual([]);
    expect(() => acpEntry.create({})).toThrow(SkillgymError);
    expect(() => acpEntry.create({})).toThrow(
      expect.objectContaining({
        message: "--agent acp needs the agent's command",
        hint: "name it after \"acp:\", e.g. --agent 'acp:gemini --acp' or --agent 'acp:goose acp'",
      }),
    );
    expect(acpEntry.apiHosts).toEqual([]);
  });
});
