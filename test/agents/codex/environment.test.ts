import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  codexCredentialSecrets,
  describeCodexLogin,
  findCodexCredentials,
  userCodexHome,
} from "../../../src/agents/codex/credentials.js";
import {
  CODEX_VARIABLES,
  codexEnvironment,
  codexHomeOf,
  prepareCodexHome,
  SIM_KEY_VARIABLE,
  tmpOf,
  visibleSkills,
} from "../../../src/agents/codex/environment.js";
import { SkillgymError } from "../../../src/errors.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-codex-env-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Fake values only: none of these is a real credential.
const parent: NodeJS.ProcessEnv = {
  PATH: "/usr/bin",
  HOME: "/home/user",
  OPENAI_API_KEY: "fake-openai-key",
  OPENAI_BASE_URL: "https://proxy.example",
  CODEX_HOME: "/home/user/.codex-custom",
  CODEX_SANDBOX: "seatbelt",
  CODEX_SANDBOX_NETWORK_DISABLED: "1",
  CODEX_THREAD_ID: "thread-1",
  CODEX_ACCESS_TOKEN: "fake-access",
  CODEX_QUIET: "1",
  SOME_SECRET: "nope",
  SUITE_VAR: "suite-value",
};
const home = "/runs/1/home";

describe("codexEnvironment", () => {
  it("a real run: the base, OPENAI_/CODEX_ variables less the dropped ones, its own home and tmp, and the key copied to CODEX_API_KEY", () => {
    expect(
      codexEnvironment({ base: parent, home, credentials: { kind: "env", variable: "OPENAI_API_KEY" } }),
    ).toEqual({
      PATH: "/usr/bin",
      OPENAI_API_KEY: "fake-openai-key",
      OPENAI_BASE_URL: "https://proxy.example",
      CODEX_ACCESS_TOKEN: "fake-access",
      CODEX_QUIET: "1",
      CODEX_API_KEY: "fake-openai-key",
      HOME: home,
      USERPROFILE: home,
      CODEX_HOME: join(home, ".codex"),
      TMPDIR: join(home, "tmp"),
    });
  });

  it("keeps a CODEX_API_KEY of the parent's own", () => {
    const env = codexEnvironment({
      base: { ...parent, CODEX_API_KEY: "fake-codex-key" },
      home,
      credentials: { kind: "env", variable: "CODEX_API_KEY" },
    });
    expect(env.CODEX_API_KEY).toBe("fake-codex-key");
    expect(env.OPENAI_API_KEY).toBe("fake-openai-key");
  });

  it("copies no key under an auth.json login, nor when the parent has no OPENAI_API_KEY", () => {
    const authFile = codexEnvironment({
      base: parent,
      home,
      credentials: { kind: "auth-file", file: "/x/auth.json" },
    });
    expect(authFile.CODEX_API_KEY).toBeUndefined();
    expect(authFile.OPENAI_API_KEY).toBe("fake-openai-key");
    const { OPENAI_API_KEY: _, ...noKey } = parent;
    const env = codexEnvironment({
      base: noKey,
      home,
      credentials: { kind: "env", variable: "CODEX_API_KEY" },
    });
    expect("CODEX_API_KEY" in env).toBe(false);
  });

  it("a simulated run: no credential or endpoint of the parent, the simulator's dummy key, the suite's names", () => {
    expect(
      codexEnvironment({
        base: parent,
        home,
        credentials: { kind: "simulator" },
        simulatorUrl: "http://127.0.0.1:9",
        passEnv: ["SUITE_VAR", "OPENAI_API_KEY"],
      }),
    ).toEqual({
      PATH: "/usr/bin",
      SUITE_VAR: "suite-value",
      HOME: home,
      USERPROFILE: home,
      CODEX_HOME: join(home, ".codex"),
      TMPDIR: join(home, "tmp"),
      [SIM_KEY_VARIABLE]: "sk-skillgym-simulator",
    });
    expect(SIM_KEY_VARIABLE).toBe("SKILLGYM_SIM_KEY");
  });

  it("a simulated run drops CODEX_API_KEY, CODEX_ACCESS_TOKEN and OPENAI_BASE_URL even when the suite names them", () => {
    const env = codexEnvironment({
      base: { ...parent, CODEX_API_KEY: "fake-codex-key" },
      home,
      credentials: { kind: "env", variable: "OPENAI_API_KEY" },
      simulatorUrl: "http://127.0.0.1:9",
      passEnv: ["CODEX_API_KEY", "CODEX_ACCESS_TOKEN", "OPENAI_BASE_URL", "CODEX_HOME", "CODEX_THREAD_ID"],
    });
    expect(env.CODEX_API_KEY).toBeUndefined();
    expect(env.CODEX_ACCESS_TOKEN).toBeUndefined();
    expect(env.OPENAI_BASE_URL).toBeUndefined();
    expect(env.CODEX_THREAD_ID).toBeUndefined();
    expect(env.CODEX_HOME).toBe(join(home, ".codex"));
  });

  it("names the variables a real run may see", () => {
    expect(CODEX_VARIABLES).toEqual({ prefixes: ["OPENAI_", "CODEX_"] });
    expect(codexHomeOf("/h")).toBe(join("/h", ".codex"));
    expect(tmpOf("/h")).toBe(join("/h", "tmp"));
  });
});

describe("prepareCodexHome", () => {
  it("makes CODEX_HOME and tmp, and copies an auth.json login into CODEX_HOME", async () => {
    const source = join(dir, "auth-source.json");
    await writeFile(source, '{"tokens":{"access_token":"fake"}}');
    const runHome = join(dir, "home-a");
    await prepareCodexHome(runHome, { kind: "auth-file", file: source });
    expect(await readFile(join(runHome, ".codex", "auth.json"), "utf8")).toBe(
      '{"tokens":{"access_token":"fake"}}',
    );
    expect((await stat(join(runHome, "tmp"))).isDirectory()).toBe(true);
  });

  it("copies nothing for a key login; a home prepared before is prepared again", async () => {
    const runHome = join(dir, "home-b");
    await prepareCodexHome(runHome, { kind: "env", variable: "OPENAI_API_KEY" });
    await prepareCodexHome(runHome, { kind: "env", variable: "OPENAI_API_KEY" });
    expect((await stat(join(runHome, ".codex"))).isDirectory()).toBe(true);
    expect((await stat(join(runHome, "tmp"))).isDirectory()).toBe(true);
    await expect(stat(join(runHome, ".codex", "auth.json"))).rejects.toThrow();
  });
});

describe("visibleSkills", () => {
  it("lists the skill folders of the workspace's and the home's roots, once each, hidden ones and files left out", async () => {
    const cwd = join(dir, "ws");
    const runHome = join(dir, "home-skills");
    await mkdir(join(cwd, ".agents", "skills", "alpha"), { recursive: true });
    await mkdir(join(cwd, ".agents", "skills", ".hidden"), { recursive: true });
    await writeFile(join(cwd, ".agents", "skills", "README.md"), "not a skill");
    await mkdir(join(cwd, ".codex", "skills", "beta"), { recursive: true });
    await mkdir(join(cwd, ".codex", "skills", "alpha"), { recursive: true });
    await mkdir(join(runHome, ".codex", "skills", "gamma"), { recursive: true });
    await mkdir(join(runHome, ".agents", "skills", "delta"), { recursive: true });
    expect((await visibleSkills(cwd, runHome)).sort()).toEqual(["alpha", "beta", "delta", "gamma"]);
  });

  it("is empty where no root exists", async () => {
    expect(await visibleSkills(join(dir, "nowhere"), join(dir, "nohome"))).toEqual([]);
  });
});

describe("findCodexCredentials", () => {
  it("takes OPENAI_API_KEY first, then CODEX_API_KEY", async () => {
    const empty = join(dir, "empty-home");
    expect(await findCodexCredentials({ HOME: empty, OPENAI_API_KEY: "a", CODEX_API_KEY: "b" })).toEqual({
      kind: "env",
      variable: "OPENAI_API_KEY",
    });
    expect(await findCodexCredentials({ HOME: empty, CODEX_API_KEY: "b" })).toEqual({
      kind: "env",
      variable: "CODEX_API_KEY",
    });
    expect(await describeCodexLogin({ HOME: empty, CODEX_API_KEY: "b" })).toBe("CODEX_API_KEY");
  });

  it("finds auth.json under HOME/.codex, or under CODEX_HOME", async () => {
    const userHome = join(dir, "user-home");
    await mkdir(join(userHome, ".codex"), { recursive: true });
    await writeFile(join(userHome, ".codex", "auth.json"), "{}");
    expect(await findCodexCredentials({ HOME: userHome })).toEqual({
      kind: "auth-file",
      file: join(userHome, ".codex", "auth.json"),
    });
    expect(await describeCodexLogin({ HOME: userHome })).toBe(join(userHome, ".codex", "auth.json"));
    const custom = join(dir, "custom-codex");
    await mkdir(custom, { recursive: true });
    await writeFile(join(custom, "auth.json"), "{}");
    expect(await findCodexCredentials({ HOME: join(dir, "nobody"), CODEX_HOME: custom })).toEqual({
      kind: "auth-file",
      file: join(custom, "auth.json"),
    });
    expect(userCodexHome({ HOME: "/h", CODEX_HOME: "" })).toBe(join("/h", ".codex"));
    expect(userCodexHome({ HOME: "/h", CODEX_HOME: "/c" })).toBe("/c");
  });

  it("refuses with a hint when there is neither a key nor a login", async () => {
    const error = await findCodexCredentials({ HOME: join(dir, "nobody") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "NO_CREDENTIALS",
      message: "no credentials for Codex CLI were found",
      hint: "set OPENAI_API_KEY, or log in with `codex login` (it writes $CODEX_HOME/auth.json); use --simulate for an offline dry run",
    });
    await expect(describeCodexLogin({ HOME: join(dir, "nobody") })).rejects.toThrow(SkillgymError);
  });
});

describe("codexCredentialSecrets", () => {
  it("masks the child's key variables and every token of a copied auth.json", async () => {
    const file = join(dir, "auth-secrets.json");
    await writeFile(
      file,
      JSON.stringify({
        OPENAI_API_KEY: "fake-file-key",
        tokens: {
          access_token: "fake-access-token",
          refresh_token: "fake-refresh",
          id_token: "fake-id",
          account_id: "acct",
        },
      }),
    );
    expect(
      await codexCredentialSecrets(
        { kind: "auth-file", file },
        { CODEX_API_KEY: "fake-child-key", PATH: "/bin" },
      ),
    ).toEqual([
      { name: "CODEX_API_KEY", value: "fake-child-key" },
      { name: "CODEX_AUTH_API_KEY", value: "fake-file-key" },
      { name: "CODEX_AUTH_ACCESS_TOKEN", value: "fake-access-token" },
      { name: "CODEX_AUTH_REFRESH_TOKEN", value: "fake-refresh" },
      { name: "CODEX_AUTH_ID_TOKEN", value: "fake-id" },
    ]);
  });

  it("reads no file for a key login", async () => {
    expect(
      await codexCredentialSecrets(
        { kind: "env", variable: "OPENAI_API_KEY" },
        { OPENAI_API_KEY: "fake-openai" },
      ),
    ).toEqual([{ name: "OPENAI_API_KEY", value: "fake-openai" }]);
  });
});
