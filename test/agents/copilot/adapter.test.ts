import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageDir } from "../../../src/agents/binary-lookup.js";
import { COPILOT_DEFAULT_MODEL, createCopilotAgent } from "../../../src/agents/copilot/agent.js";
import { approvalMode, copilotArgs } from "../../../src/agents/copilot/args.js";
import {
  bundledCandidates,
  commandLine,
  copilotVersion,
  isMusl,
  locateCopilot,
} from "../../../src/agents/copilot/binary.js";
import {
  COPILOT_SECRET_VARIABLES,
  copilotSecrets,
  describeCopilotLogin,
  findCopilotCredentials,
} from "../../../src/agents/copilot/credentials.js";
import {
  COPILOT_VARIABLES,
  copilotEnvironment,
  copilotHomeOf,
  homeFiles,
  prepareCopilotHome,
  userPackageCache,
} from "../../../src/agents/copilot/environment.js";
import { costOf } from "../../../src/agents/pricing.js";
import { SkillgymError } from "../../../src/errors.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-copilot-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Fake values only.
const parent: NodeJS.ProcessEnv = {
  PATH: "/usr/bin",
  HOME: "/home/user",
  COPILOT_GITHUB_TOKEN: "fake-copilot-token",
  GH_TOKEN: "fake-gh-token",
  GITHUB_TOKEN: "fake-github-token",
  COPILOT_PROVIDER_API_KEY: "fake-provider-key",
  COPILOT_PROVIDER_BEARER_TOKEN: "fake-bearer",
  COPILOT_PROVIDER_BASE_URL: "https://provider.example",
  COPILOT_PROVIDER_TYPE: "openai",
  COPILOT_PROVIDER_API_KEY_COMMAND: "pass x",
  COPILOT_PROVIDER_WIRE_API: "responses",
  COPILOT_PROVIDER_TRANSPORT: "http",
  COPILOT_PROVIDER_HEADERS: "{}",
  COPILOT_PROVIDER_MODEL_ID: "m",
  COPILOT_PROVIDER_WIRE_MODEL: "w",
  COPILOT_PROVIDER_AZURE_API_VERSION: "1",
  COPILOT_MODEL: "gpt-5",
  COPILOT_HOME: "/home/user/.copilot",
  COPILOT_CUSTOM_INSTRUCTIONS_DIRS: "/i",
  COPILOT_CLI_DIST_DIR: "/d",
  COPILOT_ALLOW_ALL: "1",
  COPILOT_ASSISTED_APPROVAL: "1",
  COPILOT_TRACE: "1",
  XDG_CONFIG_HOME: "/x/config",
  XDG_STATE_HOME: "/x/state",
  SOME_SECRET: "nope",
};
const home = "/runs/1/home";
const own = {
  HOME: home,
  USERPROFILE: home,
  COPILOT_HOME: join(home, ".copilot"),
  XDG_CACHE_HOME: join(home, ".cache"),
  COPILOT_PKG_CACHE_HOME: "/cache/copilot",
  TMPDIR: join(home, "tmp"),
  COPILOT_AUTO_UPDATE: "false",
};

describe("copilotEnvironment", () => {
  it("a real run: the base, its tokens and COPILOT_ settings less the dropped ones, its own home and the shared package cache", () => {
    const {
      COPILOT_HOME,
      COPILOT_CUSTOM_INSTRUCTIONS_DIRS,
      COPILOT_CLI_DIST_DIR,
      COPILOT_ALLOW_ALL,
      ...kept
    } = parent;
    const { COPILOT_ASSISTED_APPROVAL, XDG_CONFIG_HOME, XDG_STATE_HOME, HOME, SOME_SECRET, ...expected } =
      kept;
    expect(copilotEnvironment({ base: parent, home, packageCache: "/cache/copilot" })).toEqual({
      ...expected,
      ...own,
    });
  });

  it("a simulated run: offline, the simulator as provider, no token or provider setting of the parent's", () => {
    expect(
      copilotEnvironment({
        base: parent,
        home,
        packageCache: "/cache/copilot",
        simulator: { url: "http://127.0.0.1:9/", model: "skillgym-sim" },
        passEnv: ["SOME_SECRET", "GH_TOKEN", "COPILOT_PROVIDER_TYPE"],
      }),
    ).toEqual({
      PATH: "/usr/bin",
      SOME_SECRET: "nope",
      ...own,
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: "http://127.0.0.1:9/agents/v1",
      COPILOT_PROVIDER_API_KEY: "sk-skillgym-simulator",
      COPILOT_MODEL: "skillgym-sim",
    });
    const slashes = { url: "http://127.0.0.1:9//", model: "skillgym-sim" };
    expect(
      copilotEnvironment({ base: parent, home, packageCache: "/c", simulator: slashes })
        .COPILOT_PROVIDER_BASE_URL,
    ).toBe("http://127.0.0.1:9/agents/v1");
  });

  it("names the run's files and the user's package cache", () => {
    expect(COPILOT_VARIABLES).toEqual({
      prefixes: ["COPILOT_"],
      names: ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
    });
    expect(copilotHomeOf("/h")).toBe(join("/h", ".copilot"));
    expect(homeFiles("/h")).toEqual({
      instructions: join("/h", ".copilot", "copilot-instructions.md"),
      usage: join("/h", "skillgym-usage.json"),
      tmp: join("/h", "tmp"),
    });
    expect(userPackageCache({ COPILOT_PKG_CACHE_HOME: "/p", XDG_CACHE_HOME: "/x", HOME: "/h" })).toBe("/p");
    expect(userPackageCache({ XDG_CACHE_HOME: "/x", HOME: "/h" })).toBe(join("/x", "copilot"));
    expect(userPackageCache({ XDG_CACHE_HOME: "", HOME: "/h" })).toBe(join("/h", ".cache", "copilot"));
  });

  it("prepareCopilotHome writes the instructions only when there are some", async () => {
    const withPrompt = join(dir, "home-prompt");
    await prepareCopilotHome(withPrompt, "");
    expect(await readFile(homeFiles(withPrompt).instructions, "utf8")).toBe("");
    expect((await stat(homeFiles(withPrompt).tmp)).isDirectory()).toBe(true);
    const bare = join(dir, "home-bare");
    await prepareCopilotHome(bare, undefined);
    expect((await stat(copilotHomeOf(bare))).isDirectory()).toBe(true);
    await expect(stat(homeFiles(bare).instructions)).rejects.toThrow();
    // A home prepared again (its tmp folder already there) is fine.
    await prepareCopilotHome(bare, "Again.");
    expect(await readFile(homeFiles(bare).instructions, "utf8")).toBe("Again.");
  });
});

describe("findCopilotCredentials", () => {
  it("a provider of the user's own comes first, with its secrets set", async () => {
    expect(findCopilotCredentials(parent)).toEqual({
      kind: "provider",
      variables: ["COPILOT_PROVIDER_BASE_URL", "COPILOT_PROVIDER_API_KEY", "COPILOT_PROVIDER_BEARER_TOKEN"],
    });
    const bare = { COPILOT_PROVIDER_BASE_URL: "https://p", GH_TOKEN: "fake" };
    expect(findCopilotCredentials(bare)).toEqual({
      kind: "provider",
      variables: ["COPILOT_PROVIDER_BASE_URL"],
    });
    expect(await describeCopilotLogin(parent)).toBe(
      "COPILOT_PROVIDER_BASE_URL, COPILOT_PROVIDER_API_KEY, COPILOT_PROVIDER_BEARER_TOKEN",
    );
  });

  it("then a GitHub token in Copilot CLI's order", async () => {
    expect(findCopilotCredentials({ GITHUB_TOKEN: "a", GH_TOKEN: "b" })).toEqual({
      kind: "github-token",
      variable: "GH_TOKEN",
    });
    expect(await describeCopilotLogin({ GITHUB_TOKEN: "a" })).toBe("GITHUB_TOKEN");
  });

  it("refuses with a hint when there is none", () => {
    let error: unknown;
    try {
      findCopilotCredentials({ PATH: "/bin" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "NO_CREDENTIALS",
      message: "no credentials for GitHub Copilot CLI were found",
      hint:
        "set COPILOT_GITHUB_TOKEN (a GitHub token allowed to make Copilot requests), or COPILOT_PROVIDER_BASE_URL for a " +
        "model provider of your own; a `copilot login` kept in the system keychain cannot be passed to a run's own " +
        "home. Use --simulate for an offline dry run",
    });
  });

  it("masks every token and provider secret set", () => {
    expect(COPILOT_SECRET_VARIABLES).toEqual([
      "COPILOT_GITHUB_TOKEN",
      "GH_TOKEN",
      "GITHUB_TOKEN",
      "COPILOT_PROVIDER_API_KEY",
      "COPILOT_PROVIDER_BEARER_TOKEN",
    ]);
    expect(
      copilotSecrets({ GH_TOKEN: "fake-gh", COPILOT_PROVIDER_BEARER_TOKEN: "fake-b", GITHUB_TOKEN: "" }),
    ).toEqual([
      { name: "GH_TOKEN", value: "fake-gh" },
      { name: "COPILOT_PROVIDER_BEARER_TOKEN", value: "fake-b" },
    ]);
  });
});

describe("copilotArgs and approvalMode", () => {
  it("an eval run with its model", () => {
    expect(copilotArgs({ prompt: "Hi", model: "gpt-5", tools: "eval", usageFile: "/h/u.json" })).toEqual([
      "-p",
      "Hi",
      "--output-format",
      "json",
      "--allow-all-tools",
      "--no-ask-user",
      "--no-auto-update",
      "--no-color",
      "--usage-output-file",
      "/h/u.json",
      "--model",
      "gpt-5",
    ]);
    expect(approvalMode("eval")).toBe(
      "--allow-all-tools (file tools limited to the workspace and the run's TMPDIR)",
    );
    expect(approvalMode(undefined)).toBe(approvalMode("eval"));
  });

  it("a read-only run without a model", () => {
    expect(copilotArgs({ prompt: "Hi", tools: "read-only", usageFile: "/u" }).slice(10)).toEqual([
      "--available-tools=view,grep,glob",
    ]);
    expect(approvalMode("read-only")).toBe("--available-tools view, grep, glob (read-only)");
  });
});

describe("locateCopilot and its version", () => {
  it("an explicit path that exists is taken as given; one that does not is refused", async () => {
    const fake = join(dir, "explicit-copilot");
    await writeFile(fake, "");
    expect(await locateCopilot(fake, { PATH: "" })).toBe(fake);
    const error = await locateCopilot(join(dir, "missing"), { PATH: "" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: `the agent binary ${join(dir, "missing")} does not exist`,
      hint: "pass the path of a GitHub Copilot CLI binary to --agent-bin, or install it: npm install @github/copilot",
    });
  });

  it("takes the native binary npm installed before anything on PATH", async () => {
    // The platform package exports only its binary (not its package.json): it is found as npm-loader.js finds it.
    const native = packageDir("@github/copilot")
      ? join(
          packageDir("@github/copilot") ?? "",
          "..",
          `copilot-${process.platform}-${process.arch}`,
          "copilot",
        )
      : undefined;
    const bin = join(dir, "path-bin");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "copilot"), "#!/bin/sh\n", { mode: 0o755 });
    if (native === undefined || !(await stat(native).catch(() => undefined))) return;
    expect(await locateCopilot(undefined, { PATH: bin })).toBe(native);
  });

  it("then copilot on PATH; else a hint naming both", async () => {
    const bin = join(dir, "path-only");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "copilot"), "#!/bin/sh\n", { mode: 0o755 });
    expect(await locateCopilot(undefined, { PATH: bin }, () => [])).toBe(join(bin, "copilot"));
    await expect(locateCopilot(undefined, { PATH: "" }, () => [])).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "GitHub Copilot CLI was not found",
      hint: "run `npm install @github/copilot`, put `copilot` on PATH, or pass --agent-bin",
    });
  });

  it("tries the platform packages as npm-loader.js does (musl's first on a Linux without glibc), then the loader", () => {
    const resolved =
      (missing: string[] = []) =>
      (specifier: string) =>
        missing.includes(specifier) ? undefined : join("/nm", specifier);
    const loader = join("/nm", "@github/copilot/npm-loader.js");
    const arch = process.arch;
    expect(bundledCandidates("linux", resolved(), () => false)).toEqual([
      join("/nm", `@github/copilot-linux-${arch}`),
      loader,
    ]);
    expect(bundledCandidates("linux", resolved(), () => true)).toEqual([
      join("/nm", `@github/copilot-linuxmusl-${arch}`),
      join("/nm", `@github/copilot-linux-${arch}`),
      loader,
    ]);
    expect(bundledCandidates("darwin", resolved(), () => true)).toEqual([
      join("/nm", `@github/copilot-darwin-${arch}`),
      loader,
    ]);
    expect(bundledCandidates("win32", resolved([`@github/copilot-win32-${arch}`]))).toEqual([loader]);
    expect(isMusl({ header: { glibcVersionRuntime: "2.36" } })).toBe(false);
    expect(isMusl({ header: {} })).toBe(true);
  });

  it("runs a JavaScript entry under this Node, anything else as it is", () => {
    for (const entry of ["/p/npm-loader.js", "/p/a.cjs", "/p/a.mjs"])
      expect(commandLine(entry, ["-p", "x"])).toEqual({
        command: process.execPath,
        args: [entry, "-p", "x"],
      });
    expect(commandLine("/p/copilot", ["-p"])).toEqual({ command: "/p/copilot", args: ["-p"] });
    expect(commandLine("/p/a.js.bak", [])).toEqual({ command: "/p/a.js.bak", args: [] });
  });

  it("reads the version of a Copilot package beside the binary, and of no other", async () => {
    const ours = join(dir, "pkg-ours");
    await mkdir(ours, { recursive: true });
    await writeFile(
      join(ours, "package.json"),
      JSON.stringify({ name: "@github/copilot-linux-x64", version: "1.2.3" }),
    );
    expect(await copilotVersion(join(ours, "copilot"))).toBe("1.2.3");
    const other = join(dir, "pkg-other");
    await mkdir(join(other, "bin"), { recursive: true });
    await writeFile(
      join(other, "package.json"),
      JSON.stringify({ name: "@github/copilot", version: "1.2.3" }),
    );
    expect(await copilotVersion(join(other, "bin", "copilot"))).toBeUndefined();
    const named = join(dir, "pkg-named");
    await mkdir(named, { recursive: true });
    await writeFile(join(named, "package.json"), JSON.stringify({ name: "x-@github/copilot", version: "1" }));
    expect(await copilotVersion(join(named, "copilot"))).toBeUndefined();
  });
});

// Lines as `copilot -p … --output-format json` 1.0.102 wrote them against a local server.
const stream = [
  {
    type: "session.skills_loaded",
    data: {
      skills: [{ name: "haiku", source: "project", enabled: true, path: "/w/.github/skills/haiku/SKILL.md" }],
    },
  },
  {
    type: "assistant.message",
    data: { messageId: "m1", model: "skillgym-sim", content: "Done.", toolRequests: [] },
  },
  { type: "result", sessionId: "s1", exitCode: 0, usage: { premiumRequests: 0 } },
];

describe("createCopilotAgent (a fake copilot binary)", () => {
  it("runs it with the run's arguments and home, and adds the tokens of the usage file to the result", async () => {
    const root = join(dir, "agent");
    const pkg = join(root, "pkg");
    await mkdir(pkg, { recursive: true });
    await writeFile(
      join(pkg, "package.json"),
      JSON.stringify({ name: "@github/copilot", version: "0.0.1-test" }),
    );
    await writeFile(join(root, "stream.jsonl"), `${stream.map((l) => JSON.stringify(l)).join("\n")}\n`);
    await writeFile(
      join(root, "usage.json"),
      JSON.stringify({
        modelMetrics: {
          "claude-sonnet-4.5": {
            usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 1 },
          },
        },
      }),
    );
    const binary = join(pkg, "copilot");
    await writeFile(
      binary,
      [
        "#!/bin/sh",
        `D='${root}'`,
        'if [ "$1" = "--version" ]; then echo "$COPILOT_PKG_CACHE_HOME $COPILOT_AUTO_UPDATE" >> "$D/version.log"; exit 0; fi',
        'printf "%s\\n" "$@" > "$D/args.txt"',
        'echo "$HOME|$COPILOT_MODEL|$COPILOT_OFFLINE|$SUITE_SETTING" > "$D/env.txt"',
        'while [ $# -gt 0 ]; do if [ "$1" = "--usage-output-file" ]; then U="$2"; fi; shift; done',
        'cat "$D/stream.jsonl"',
        'cp "$D/usage.json" "$U"',
        "",
      ].join("\n"),
    );
    await chmod(binary, 0o755);
    const cache = join(root, "cache");
    const agent = await createCopilotAgent({
      binary,
      simulatorUrl: "http://127.0.0.1:9",
      env: {
        PATH: process.env.PATH,
        HOME: join(root, "user"),
        COPILOT_PKG_CACHE_HOME: cache,
        SUITE_SETTING: "on",
      },
      passEnv: ["SUITE_SETTING"],
    });
    expect(await readFile(join(root, "version.log"), "utf8")).toBe(`${cache} false\n`);
    expect(agent).toMatchObject({
      name: "copilot",
      mode: approvalMode("eval"),
      version: "0.0.1-test",
      skillsFolder: ".github/skills",
      binary,
      simulated: true,
    });
    const cwd = join(root, "ws");
    const runHome = join(root, "home");
    await mkdir(cwd, { recursive: true });
    await mkdir(runHome, { recursive: true });
    const ran = await agent.run({
      prompt: "Write",
      cwd,
      home: runHome,
      timeoutMs: 60_000,
      tools: "read-only",
    });
    expect((await readFile(join(root, "args.txt"), "utf8")).trim().split("\n")).toEqual(
      copilotArgs({
        prompt: "Write",
        model: "skillgym-sim",
        tools: "read-only",
        usageFile: homeFiles(runHome).usage,
      }),
    );
    expect(await readFile(join(root, "env.txt"), "utf8")).toBe(`${runHome}|skillgym-sim|true|on\n`);
    expect(ran.outcome).toBe("success");
    expect(ran.init).toMatchObject({
      model: "skillgym-sim",
      version: "0.0.1-test",
      mode: approvalMode("read-only"),
    });
    expect(ran.init?.skills).toEqual([
      "haiku",
      "customize-cloud-agent",
      "discover-resources",
      "github-pr-media",
    ]);
    expect(ran.result?.usage).toEqual({
      inputTokens: 10,
      outputTokens: 2,
      cacheReadTokens: 3,
      cacheWriteTokens: 1,
    });
    // A provider's tokens (here the simulator's) are priced at list price.
    expect(ran.result?.costUsd).toBe(costOf("claude-sonnet-4.5", ran.result?.usage ?? usageOf(0)));
    expect(ran.result?.costUsd).toBeGreaterThan(0);
    expect(ran.events.at(-1)).toBe(ran.result);
    expect(ran.events.filter((e) => e.kind === "result")).toEqual([ran.result]);
    expect(ran.events[0]?.kind).toBe("init");
  });

  it("a GitHub token's run: no unpacking once the package is there, Copilot's own model, and no price", async () => {
    const root = join(dir, "agent");
    const binary = join(root, "pkg", "copilot");
    const cache = join(root, "cache-2");
    await mkdir(join(cache, "pkg", `${process.platform}-${process.arch}`, "0.0.1-test"), { recursive: true });
    const before = await readFile(join(root, "version.log"), "utf8");
    const agent = await createCopilotAgent({
      binary,
      env: {
        PATH: process.env.PATH,
        HOME: join(root, "user"),
        COPILOT_PKG_CACHE_HOME: cache,
        GH_TOKEN: "fake-gh-token-1",
      },
    });
    expect(await readFile(join(root, "version.log"), "utf8")).toBe(before);
    expect(agent.simulated).toBe(false);
    expect(agent.redactor.names).toEqual(["GH_TOKEN"]);
    const cwd = join(root, "ws");
    const runHome = join(root, "home-2");
    await mkdir(runHome, { recursive: true });
    const ran = await agent.run({ prompt: "Write", cwd, home: runHome, timeoutMs: 60_000 });
    expect((await readFile(join(root, "args.txt"), "utf8")).trim().split("\n")).toEqual(
      copilotArgs({ prompt: "Write", usageFile: homeFiles(runHome).usage }),
    );
    expect(await readFile(join(root, "env.txt"), "utf8")).toBe(`${runHome}|||\n`);
    expect(ran.init).toMatchObject({ model: COPILOT_DEFAULT_MODEL, mode: approvalMode("eval") });
    expect(COPILOT_DEFAULT_MODEL).toBe("copilot-default");
    expect(ran.result?.usage).toEqual({
      inputTokens: 10,
      outputTokens: 2,
      cacheReadTokens: 3,
      cacheWriteTokens: 1,
    });
    expect(ran.result && "costUsd" in ran.result).toBe(false);
    expect(ran.events.at(-1)).toBe(ran.result);
  });
});

const usageOf = (n: number) => ({ inputTokens: n, outputTokens: n, cacheReadTokens: n, cacheWriteTokens: n });
