import { lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeOpenCodeLogin,
  findOpenCodeCredentials,
  openCodeSecrets,
  PROVIDER_KEYS,
  userAuthFile,
} from "../../../src/agents/opencode/credentials.js";
import {
  homeFiles,
  openCodeEnvironment,
  openCodeVariables,
  permissionMode,
  prepareOpenCodeHome,
  runConfig,
  SIM_PROVIDER,
} from "../../../src/agents/opencode/environment.js";
import { SkillgymError } from "../../../src/errors.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-opencode-env-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Fake values only.
const parent: NodeJS.ProcessEnv = {
  PATH: "/usr/bin",
  HOME: "/home/user",
  ANTHROPIC_API_KEY: "fake-anthropic",
  GITHUB_TOKEN: "fake-github",
  OPENCODE_CONFIG: "/home/user/oc.json",
  OPENCODE_CONFIG_DIR: "/home/user/.oc",
  OPENCODE_CONFIG_CONTENT: "{}",
  OPENCODE_PERMISSION: "{}",
  OPENCODE_AUTH_CONTENT: "{}",
  OPENCODE_DB: "/db",
  OPENCODE_TUI_CONFIG: "/tui",
  OPENCODE_DISABLE_PROJECT_CONFIG: "1",
  OPENCODE_SERVER_PASSWORD: "pw",
  OPENCODE_SERVER_USERNAME: "me",
  OPENCODE_PID: "12",
  OPENCODE_TEST_HOME: "/t",
  OPENCODE_DISABLE_SHARE: "1",
  XDG_CONFIG_HOME: "/home/user/.config",
  SOME_SECRET: "nope",
};
const home = "/runs/1/home";
const own = {
  HOME: home,
  USERPROFILE: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local", "share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  XDG_STATE_HOME: join(home, ".local", "state"),
  TMPDIR: join(home, "tmp"),
  OPENCODE_CONFIG: join(home, "skillgym-opencode.json"),
  OPENCODE_DISABLE_AUTOUPDATE: "1",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  OPENCODE_DISABLE_TERMINAL_TITLE: "1",
};

describe("openCodeEnvironment", () => {
  it("a real run: the base, the provider keys, OPENCODE_ settings less the dropped ones, and every XDG folder in the home", () => {
    expect(openCodeEnvironment({ base: parent, home, simulated: false, model: "anthropic/claude" })).toEqual({
      PATH: "/usr/bin",
      ANTHROPIC_API_KEY: "fake-anthropic",
      OPENCODE_DISABLE_SHARE: "1",
      ...own,
    });
  });

  it("passes GITHUB_TOKEN to GitHub's providers' models only", () => {
    expect(
      openCodeEnvironment({ base: parent, home, simulated: false, model: "github-models/x" }).GITHUB_TOKEN,
    ).toBe("fake-github");
    expect(openCodeEnvironment({ base: parent, home, simulated: false }).GITHUB_TOKEN).toBeUndefined();
    expect(
      openCodeEnvironment({ base: parent, home, simulated: false, model: "x/github-copilot/" }).GITHUB_TOKEN,
    ).toBeUndefined();
  });

  it("a simulated run: no provider key even when the suite names one, models fetch off", () => {
    expect(
      openCodeEnvironment({
        base: parent,
        home,
        simulated: true,
        passEnv: ["ANTHROPIC_API_KEY", "SOME_SECRET"],
      }),
    ).toEqual({
      PATH: "/usr/bin",
      SOME_SECRET: "nope",
      ...own,
      OPENCODE_DISABLE_MODELS_FETCH: "1",
    });
  });

  it("names the variables a real run may see", () => {
    expect(openCodeVariables(undefined)).toEqual({
      prefixes: ["OPENCODE_"],
      names: PROVIDER_KEYS.filter((name) => name !== "GITHUB_TOKEN"),
    });
    expect(openCodeVariables("github-copilot/gpt-4.1")).toEqual({
      prefixes: ["OPENCODE_"],
      names: PROVIDER_KEYS,
    });
  });

  it("lays out the files of a run's home", () => {
    expect(homeFiles("/h")).toEqual({
      config: join("/h", "skillgym-opencode.json"),
      instructions: join("/h", "skillgym-system-prompt.md"),
      auth: join("/h", ".local", "share", "opencode", "auth.json"),
      ripgrep: join("/h", ".cache", "opencode", "bin", process.platform === "win32" ? "rg.exe" : "rg"),
      tmp: join("/h", "tmp"),
    });
    expect(homeFiles("/h", "win32").ripgrep).toBe(join("/h", ".cache", "opencode", "bin", "rg.exe"));
    expect(homeFiles("/h", "linux").ripgrep).toBe(join("/h", ".cache", "opencode", "bin", "rg"));
  });
});

const evalPermissions = {
  edit: "allow",
  bash: "allow",
  skill: "allow",
  webfetch: "deny",
  websearch: "deny",
  external_directory: "deny",
  doom_loop: "deny",
};
const readOnlyPermissions = {
  edit: "deny",
  bash: "deny",
  skill: "deny",
  task: "deny",
  todowrite: "deny",
  webfetch: "deny",
  websearch: "deny",
  external_directory: "deny",
  doom_loop: "deny",
};

describe("runConfig and permissionMode", () => {
  it("an eval run's config without simulator or instructions", () => {
    expect(runConfig({ tools: "eval" })).toEqual({
      $schema: "https://opencode.ai/config.json",
      autoupdate: false,
      share: "disabled",
      snapshot: false,
      permission: evalPermissions,
    });
  });

  it("a read-only run under the simulator with instructions", () => {
    expect(
      runConfig({
        tools: "read-only",
        instructions: "/h/prompt.md",
        simulator: { url: "http://127.0.0.1:9//", model: "sim-model" },
      }),
    ).toEqual({
      $schema: "https://opencode.ai/config.json",
      autoupdate: false,
      share: "disabled",
      snapshot: false,
      permission: readOnlyPermissions,
      instructions: ["/h/prompt.md"],
      provider: {
        "skillgym-sim": {
          npm: "@ai-sdk/openai-compatible",
          name: "skillgym sim",
          options: { baseURL: "http://127.0.0.1:9/agents/v1", apiKey: "sk-skillgym-simulator" },
          models: { "sim-model": { name: "sim-model" } },
        },
      },
      model: "skillgym-sim/sim-model",
      small_model: "skillgym-sim/sim-model",
    });
    expect(SIM_PROVIDER).toBe("skillgym-sim");
  });

  it("says which tools each policy leaves", () => {
    expect(permissionMode("read-only")).toBe(
      "permission: read, glob and grep only (edit, bash, skill, task, web denied)",
    );
    expect(permissionMode("eval")).toBe(
      "permission: edit, bash and skill allowed; web and folders outside the workspace denied",
    );
  });
});

describe("prepareOpenCodeHome", () => {
  it("writes the config and system prompt, copies the login and links ripgrep", async () => {
    const runHome = join(dir, "home-full");
    const auth = join(dir, "auth-src.json");
    await writeFile(auth, '{"anthropic":{"type":"api","key":"fake"}}');
    const rg = join(dir, "rg-real");
    await writeFile(rg, "#!/bin/sh\n");
    await prepareOpenCodeHome({
      home: runHome,
      tools: "eval",
      credentials: { kind: "auth-file", file: auth, variables: [] },
      systemPrompt: "Be brief.",
      simulator: { url: "http://127.0.0.1:9", model: "m" },
      ripgrep: rg,
    });
    const files = homeFiles(runHome);
    expect(await readFile(files.instructions, "utf8")).toBe("Be brief.");
    const text = await readFile(files.config, "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual(
      runConfig({
        tools: "eval",
        instructions: files.instructions,
        simulator: { url: "http://127.0.0.1:9", model: "m" },
      }),
    );
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(await readFile(files.auth, "utf8")).toBe('{"anthropic":{"type":"api","key":"fake"}}');
    expect((await lstat(files.ripgrep)).isSymbolicLink()).toBe(true);
    expect(await readlink(files.ripgrep)).toBe(rg);
    expect((await stat(files.tmp)).isDirectory()).toBe(true);
  });

  it("a key login without prompt or ripgrep: the config alone, with no instructions", async () => {
    const runHome = join(dir, "home-bare");
    await prepareOpenCodeHome({
      home: runHome,
      tools: "read-only",
      credentials: { kind: "env", variables: [] },
    });
    const files = homeFiles(runHome);
    expect(JSON.parse(await readFile(files.config, "utf8"))).toEqual(runConfig({ tools: "read-only" }));
    await expect(stat(files.instructions)).rejects.toThrow();
    await expect(stat(files.auth)).rejects.toThrow();
    await expect(lstat(files.ripgrep)).rejects.toThrow();
    expect((await stat(join(runHome, ".cache", "opencode", "bin"))).isDirectory()).toBe(true);
    expect((await stat(join(runHome, ".local", "share", "opencode"))).isDirectory()).toBe(true);
    // A home prepared again (its folders already there) is fine.
    await prepareOpenCodeHome({ home: runHome, tools: "eval", credentials: { kind: "env", variables: [] } });
    expect(JSON.parse(await readFile(files.config, "utf8"))).toEqual(runConfig({ tools: "eval" }));
  });

  it("an empty system prompt is still written", async () => {
    const runHome = join(dir, "home-empty-prompt");
    await prepareOpenCodeHome({
      home: runHome,
      tools: "eval",
      credentials: { kind: "simulator" },
      systemPrompt: "",
    });
    const files = homeFiles(runHome);
    expect(await readFile(files.instructions, "utf8")).toBe("");
    expect(JSON.parse(await readFile(files.config, "utf8")).instructions).toEqual([files.instructions]);
  });
});

describe("findOpenCodeCredentials", () => {
  it("the login file wins, with the keys set beside it", async () => {
    const data = join(dir, "xdg-data");
    await mkdir(join(data, "opencode"), { recursive: true });
    await writeFile(join(data, "opencode", "auth.json"), "{}");
    const env = {
      HOME: join(dir, "nobody"),
      XDG_DATA_HOME: data,
      OPENAI_API_KEY: "fake",
      GITHUB_TOKEN: "fake",
    };
    expect(await findOpenCodeCredentials(env)).toEqual({
      kind: "auth-file",
      file: join(data, "opencode", "auth.json"),
      variables: ["OPENAI_API_KEY", "GITHUB_TOKEN"],
    });
    expect(await describeOpenCodeLogin(env)).toBe(
      `${join(data, "opencode", "auth.json")}, OPENAI_API_KEY, GITHUB_TOKEN`,
    );
  });

  it("keys alone, in the order of PROVIDER_KEYS", async () => {
    const env = {
      HOME: join(dir, "nobody"),
      GROQ_API_KEY: "fake",
      ANTHROPIC_API_KEY: "fake",
      XAI_API_KEY: "",
    };
    expect(await findOpenCodeCredentials(env)).toEqual({
      kind: "env",
      variables: ["ANTHROPIC_API_KEY", "GROQ_API_KEY"],
    });
    expect(await describeOpenCodeLogin(env)).toBe("ANTHROPIC_API_KEY, GROQ_API_KEY");
  });

  it("finds the login under HOME/.local/share when XDG_DATA_HOME is empty", async () => {
    const userHome = join(dir, "oc-user");
    await mkdir(join(userHome, ".local", "share", "opencode"), { recursive: true });
    await writeFile(join(userHome, ".local", "share", "opencode", "auth.json"), "{}");
    expect(userAuthFile({ HOME: userHome, XDG_DATA_HOME: "" })).toBe(
      join(userHome, ".local", "share", "opencode", "auth.json"),
    );
    expect(await findOpenCodeCredentials({ HOME: userHome })).toEqual({
      kind: "auth-file",
      file: join(userHome, ".local", "share", "opencode", "auth.json"),
      variables: [],
    });
  });

  it("refuses with a hint when there is nothing", async () => {
    const error = await findOpenCodeCredentials({ HOME: join(dir, "nobody") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "NO_CREDENTIALS",
      message: "no credentials for OpenCode were found",
      hint:
        "set the API key of the provider your --model names (ANTHROPIC_API_KEY, OPENAI_API_KEY, …), or log in with " +
        "`opencode auth login` (it writes ~/.local/share/opencode/auth.json); use --simulate for an offline dry run",
    });
  });
});

describe("openCodeSecrets", () => {
  it("nothing under the simulator", async () => {
    expect(await openCodeSecrets({ kind: "simulator" }, { ANTHROPIC_API_KEY: "fake-anthropic" })).toEqual([]);
  });

  it("the provider keys set, for a key login", async () => {
    expect(
      await openCodeSecrets(
        { kind: "env", variables: [] },
        {
          ANTHROPIC_API_KEY: "fake-anthropic",
          GITHUB_TOKEN: "fake-github-token",
          PATH: "/bin",
          OPENAI_API_KEY: "",
        },
      ),
    ).toEqual([
      { name: "ANTHROPIC_API_KEY", value: "fake-anthropic" },
      { name: "GITHUB_TOKEN", value: "fake-github-token" },
    ]);
  });

  it("and the tokens of a login file, wherever they sit", async () => {
    const file = join(dir, "auth-tokens.json");
    await writeFile(
      file,
      JSON.stringify({
        anthropic: { type: "oauth", access: "fake-access", refresh: "fake-refresh" },
        openai: { type: "api", key: "fake-key" },
      }),
    );
    expect(
      await openCodeSecrets(
        { kind: "auth-file", file, variables: [] },
        { OPENAI_API_KEY: "fake-openai-key" },
      ),
    ).toEqual([
      { name: "OPENAI_API_KEY", value: "fake-openai-key" },
      { name: "OPENCODE_AUTH_ACCESS_TOKEN", value: "fake-access" },
      { name: "OPENCODE_AUTH_REFRESH_TOKEN", value: "fake-refresh" },
      { name: "OPENCODE_AUTH_KEY", value: "fake-key" },
    ]);
  });
});
