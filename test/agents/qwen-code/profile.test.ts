import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeQwenLogin, findQwenCredentials } from "../../../src/agents/qwen-code/credentials.js";
import { qwenCodeEntry } from "../../../src/agents/qwen-code/entry.js";
import {
  prepareQwenHome,
  QWEN_VARIABLES,
  qwenEnvironment,
  qwenSettings,
} from "../../../src/agents/qwen-code/environment.js";
import { QWEN_COMMAND, qwenProfile } from "../../../src/agents/qwen-code/profile.js";
import { qwenBuiltinSkills, qwenSkillRoots } from "../../../src/agents/qwen-code/skills.js";
import { SkillgymError } from "../../../src/errors.js";

let dir: string;
let binary: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-qwen-"));
  // A fake installed package: the binary two folders below a package.json of Qwen Code's.
  const pkg = join(dir, "pkg");
  await mkdir(join(pkg, "dist"), { recursive: true });
  await writeFile(
    join(pkg, "package.json"),
    JSON.stringify({ name: "@qwen-code/qwen-code", version: "9.8.7" }),
  );
  binary = join(pkg, "dist", "qwen");
  await writeFile(binary, "#!/bin/sh\n", { mode: 0o755 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Fake values only.
const parent: NodeJS.ProcessEnv = {
  PATH: "/usr/bin",
  HOME: "/home/user",
  OPENAI_API_KEY: "fake-openai-key",
  OPENAI_BASE_URL: "https://dashscope.example/v1",
  OPENAI_MODEL: "qwen3-coder",
  QWEN_HOME: "/home/user/.qwen",
  QWEN_DIR: "/q",
  QWEN_RUNTIME_DIR: "/r",
  QWEN_CODE_TRUSTED_FOLDERS_PATH: "/t",
  QWEN_CODE_MCP_APPROVALS_PATH: "/m",
  QWEN_CODE_SYSTEM_SETTINGS_PATH: "/s",
  QWEN_DAEMON_URL: "http://d",
  QWEN_SERVER_TOKEN: "fake-server-token",
  QWEN_CODE_DEBUG: "1",
  SOME_SECRET: "nope",
};
const home = "/runs/1/home";

describe("qwenEnvironment", () => {
  it("a real run: the base, OPENAI_ and QWEN_ variables less the dropped ones, its own home, no relaunch", () => {
    expect(
      qwenEnvironment({ base: parent, home, credentials: { kind: "env", variable: "OPENAI_API_KEY" } }),
    ).toEqual({
      PATH: "/usr/bin",
      OPENAI_API_KEY: "fake-openai-key",
      OPENAI_BASE_URL: "https://dashscope.example/v1",
      OPENAI_MODEL: "qwen3-coder",
      QWEN_CODE_DEBUG: "1",
      HOME: home,
      USERPROFILE: home,
      TMPDIR: join(home, "tmp"),
      QWEN_CODE_NO_RELAUNCH: "true",
    });
    expect(QWEN_VARIABLES).toEqual({ prefixes: ["OPENAI_", "QWEN_"] });
  });

  it("a simulated run: the simulator's endpoint, dummy key and model, the suite's names and nothing of the parent's login", () => {
    expect(
      qwenEnvironment({
        base: parent,
        home,
        credentials: { kind: "simulator" },
        simulator: { url: "http://127.0.0.1:9//", model: "skillgym-sim" },
        passEnv: ["SOME_SECRET", "QWEN_SERVER_TOKEN"],
      }),
    ).toEqual({
      PATH: "/usr/bin",
      SOME_SECRET: "nope",
      HOME: home,
      USERPROFILE: home,
      TMPDIR: join(home, "tmp"),
      QWEN_CODE_NO_RELAUNCH: "true",
      OPENAI_API_KEY: "sk-skillgym-simulator",
      OPENAI_BASE_URL: "http://127.0.0.1:9/agents/v1",
      OPENAI_MODEL: "skillgym-sim",
    });
  });
});

const settings = {
  security: { auth: { selectedType: "openai" }, folderTrust: { enabled: false } },
  general: { enableAutoUpdate: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
  ui: { enableFollowupSuggestions: false },
};

describe("qwenSettings and prepareQwenHome", () => {
  it("turns retries off only under the simulator", () => {
    expect(qwenSettings(false)).toEqual(settings);
    expect(qwenSettings(true)).toEqual({ ...settings, model: { generationConfig: { maxRetries: 0 } } });
  });

  it("writes .qwen/settings.json and makes tmp", async () => {
    const runHome = join(dir, "home-a");
    await prepareQwenHome(runHome, true);
    expect(await readFile(join(runHome, ".qwen", "settings.json"), "utf8")).toBe(
      `${JSON.stringify(qwenSettings(true), null, 2)}\n`,
    );
    expect((await stat(join(runHome, "tmp"))).isDirectory()).toBe(true);
    // A home prepared again (its folders already there) is fine.
    await prepareQwenHome(runHome, false);
    expect(JSON.parse(await readFile(join(runHome, ".qwen", "settings.json"), "utf8"))).toEqual(
      qwenSettings(false),
    );
  });
});

describe("findQwenCredentials", () => {
  it("takes OPENAI_API_KEY", async () => {
    expect(findQwenCredentials({ OPENAI_API_KEY: "fake" })).toEqual({
      kind: "env",
      variable: "OPENAI_API_KEY",
    });
    expect(await describeQwenLogin({ OPENAI_API_KEY: "fake" })).toBe("OPENAI_API_KEY");
  });

  it("refuses without it, with a hint", () => {
    let error: unknown;
    try {
      findQwenCredentials({ OPENAI_API_KEY: "", DASHSCOPE_API_KEY: "fake" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "NO_CREDENTIALS",
      message: "no credentials for Qwen Code were found",
      hint:
        "set OPENAI_API_KEY, with OPENAI_BASE_URL and OPENAI_MODEL for an OpenAI-compatible endpoint (DashScope, " +
        "OpenRouter, …); use --simulate for an offline dry run",
    });
  });
});

describe("qwenProfile", () => {
  const setup = (tools: "eval" | "read-only", model: string | undefined) => ({
    home,
    cwd: "/ws",
    tools,
    model,
  });

  it("a real run: label, skills, version, the approval mode by policy and the model as a flag", async () => {
    const profile = await qwenProfile(QWEN_COMMAND, { binary, env: parent });
    expect(QWEN_COMMAND).toEqual(["qwen", "--acp"]);
    expect(profile.label).toBe("Qwen Code over ACP (qwen --acp)");
    expect(profile.skillsFolder).toBe(".qwen/skills");
    expect(profile.builtinSkills).toEqual(qwenBuiltinSkills);
    expect(profile.version).toBe("9.8.7");
    expect(profile.skillRoots).toBe(qwenSkillRoots);
    expect(profile.commandLine(setup("eval", "qwen3-coder"))).toEqual({
      command: binary,
      args: ["--acp", "--approval-mode", "default", "-m", "qwen3-coder"],
    });
    expect(profile.commandLine(setup("read-only", undefined))).toEqual({
      command: binary,
      args: ["--acp", "--approval-mode", "plan"],
    });
    expect(profile.sessionMode?.("read-only")).toBe("plan");
    expect(profile.sessionMode?.("eval")).toBeUndefined();
    expect(profile.secrets).toEqual([{ name: "OPENAI_API_KEY", value: "fake-openai-key" }]);
    expect(profile.environment(setup("eval", "m"))).toEqual(
      qwenEnvironment({ base: parent, home, credentials: { kind: "env", variable: "OPENAI_API_KEY" } }),
    );
  });

  it("keeps the user's own approval mode and model flags", async () => {
    const withFlags = (words: string[]) =>
      qwenProfile(words, { binary, env: parent }).then(
        (p) => p.commandLine(setup("read-only", "other")).args,
      );
    expect(await withFlags(["qwen", "--acp", "--approval-mode", "yolo", "-m", "mine"])).toEqual([
      "--acp",
      "--approval-mode",
      "yolo",
      "-m",
      "mine",
    ]);
    expect(await withFlags(["qwen", "--acp", "--model", "mine"])).toEqual([
      "--acp",
      "--model",
      "mine",
      "--approval-mode",
      "plan",
    ]);
    expect(await withFlags(["qwen", "--acp", "--model=mine"])).toEqual([
      "--acp",
      "--model=mine",
      "--approval-mode",
      "plan",
    ]);
  });

  it("a simulated run: no credential needed, the simulator's model by default, the dummy key masked", async () => {
    const profile = await qwenProfile(QWEN_COMMAND, {
      binary,
      env: { PATH: "/usr/bin" },
      simulatorUrl: "http://127.0.0.1:9",
    });
    expect(profile.environment(setup("eval", undefined))).toMatchObject({
      OPENAI_BASE_URL: "http://127.0.0.1:9/agents/v1",
      OPENAI_MODEL: "skillgym-sim",
      HOME: home,
    });
    expect(profile.environment(setup("eval", "other")).OPENAI_MODEL).toBe("other");
    expect(profile.secrets).toEqual([{ name: "OPENAI_API_KEY", value: "sk-skillgym-simulator" }]);
    const runHome = join(dir, "home-profile");
    await profile.prepare({ ...setup("eval", undefined), home: runHome });
    expect(JSON.parse(await readFile(join(runHome, ".qwen", "settings.json"), "utf8"))).toEqual(
      qwenSettings(true),
    );
  });

  it("lists the skills of the installed package's bundled folder, else the known built-in ones", async () => {
    const pkg = join(dir, "qwen-package");
    await mkdir(join(pkg, "bundled", "loop"), { recursive: true });
    await writeFile(join(pkg, "bundled", "loop", "SKILL.md"), "---\nname: loop\n---\n");
    const options = { binary, env: parent };
    expect((await qwenProfile(QWEN_COMMAND, options, () => pkg)).builtinSkills).toEqual(["loop"]);
    const empty = join(dir, "qwen-package-empty");
    await mkdir(join(empty, "bundled"), { recursive: true });
    expect((await qwenProfile(QWEN_COMMAND, options, () => empty)).builtinSkills).toEqual(qwenBuiltinSkills);
    expect((await qwenProfile(QWEN_COMMAND, options, () => undefined)).builtinSkills).toEqual(
      qwenBuiltinSkills,
    );
  });

  it("is the qwen-code agent of the registry", async () => {
    const agent = await qwenCodeEntry.create({ binary, env: parent });
    expect(agent.name).toBe("qwen-code");
    expect(agent.simulated).toBe(false);
  });

  it("a real run without a key stops before anything starts", async () => {
    await expect(qwenProfile(QWEN_COMMAND, { binary, env: { PATH: "/usr/bin" } })).rejects.toMatchObject({
      code: "NO_CREDENTIALS",
    });
  });

  it("a real run's home gets settings without the simulator's retries", async () => {
    const profile = await qwenProfile(QWEN_COMMAND, { binary, env: parent });
    const runHome = join(dir, "home-real");
    await profile.prepare({ ...setup("eval", undefined), home: runHome });
    expect(JSON.parse(await readFile(join(runHome, ".qwen", "settings.json"), "utf8"))).toEqual(
      qwenSettings(false),
    );
  });
});
