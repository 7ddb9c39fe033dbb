import { afterEach, describe, expect, it } from "vitest";
import { allowedEnvironment, suiteNames } from "../../src/agents/allowed-env.js";
import { childEnvironment as claudeEnvironment } from "../../src/agents/claude-code/environment.js";
import { codexEnvironment } from "../../src/agents/codex/environment.js";
import { copilotEnvironment } from "../../src/agents/copilot/environment.js";
import { childEnvironment as geminiEnvironment } from "../../src/agents/gemini/environment.js";
import { openCodeEnvironment } from "../../src/agents/opencode/environment.js";
import { checkEnvironment } from "../../src/grade/checks/command.js";

// What a CI job hands skillgym: the basics, every agent's key, and secrets meant for other steps.
const parent: NodeJS.ProcessEnv = {
  PATH: "/usr/bin:/bin",
  LANG: "en_US.UTF-8",
  LC_ALL: "en_US.UTF-8",
  TERM: "xterm",
  TZ: "UTC",
  HTTPS_PROXY: "http://proxy.corp:3128",
  no_proxy: "localhost",
  NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem",
  HOME: "/home/ci",
  USER: "ci",
  GITHUB_TOKEN: "ghs_repository_token",
  GH_TOKEN: "gho_user_token",
  NPM_TOKEN: "npm_publish_token",
  AWS_ACCESS_KEY_ID: "AKIA-deploy",
  AWS_SECRET_ACCESS_KEY: "aws-deploy-secret",
  SOME_SECRET: "some-secret",
  SKILLGYM_CANARY: "canary",
  ANTHROPIC_API_KEY: "sk-ant-key",
  CLAUDE_CODE_OAUTH_TOKEN: "claude-oauth",
  OPENAI_API_KEY: "sk-openai-key",
  CODEX_API_KEY: "codex-key",
  GEMINI_API_KEY: "gemini-key",
  GOOGLE_API_KEY: "google-key",
  OPENROUTER_API_KEY: "openrouter-key",
  OPENCODE_DISABLE_SHARE: "1",
  COPILOT_GITHUB_TOKEN: "copilot-token",
  COPILOT_PROVIDER_API_KEY: "copilot-provider-key",
};

const base = {
  PATH: "/usr/bin:/bin",
  LANG: "en_US.UTF-8",
  LC_ALL: "en_US.UTF-8",
  TERM: "xterm",
  TZ: "UTC",
  HTTPS_PROXY: "http://proxy.corp:3128",
  no_proxy: "localhost",
  NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem",
};
const everyCredential = [
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "NPM_TOKEN",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "SOME_SECRET",
  "ANTHROPIC_API_KEY",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "OPENAI_API_KEY",
  "CODEX_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "OPENROUTER_API_KEY",
  "COPILOT_GITHUB_TOKEN",
  "COPILOT_PROVIDER_API_KEY",
];
const home = "/runs/1/home";
const sim = "http://127.0.0.1:9";

// The parent's variables a child got with the parent's own value (the adapters set some names to values of their own).
function passed(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => parent[name] !== undefined && env[name] === parent[name])
    .sort();
}

const sorted = (names: string[]) => [...names].sort();

// Each agent's environment, real and simulated, with the suite's names given or not.
const agents: Record<string, (simulated: boolean, passEnv?: string[]) => NodeJS.ProcessEnv> = {
  "claude-code": (simulated, passEnv) =>
    claudeEnvironment({
      base: parent,
      home,
      credentials: simulated ? { kind: "simulator" } : { kind: "env", variable: "ANTHROPIC_API_KEY" },
      ...(simulated ? { simulatorUrl: sim } : {}),
      ...(passEnv ? { passEnv } : {}),
    }),
  codex: (simulated, passEnv) =>
    codexEnvironment({
      base: parent,
      home,
      credentials: simulated ? { kind: "simulator" } : { kind: "env", variable: "OPENAI_API_KEY" },
      ...(simulated ? { simulatorUrl: sim } : {}),
      ...(passEnv ? { passEnv } : {}),
    }),
  gemini: (simulated, passEnv) =>
    geminiEnvironment({
      base: parent,
      home,
      credentials: simulated ? { kind: "simulator" } : { kind: "env", variable: "GEMINI_API_KEY" },
      ...(simulated ? { simulatorUrl: sim } : {}),
      ...(passEnv ? { passEnv } : {}),
    }),
  opencode: (simulated, passEnv) =>
    openCodeEnvironment({ base: parent, home, simulated, ...(passEnv ? { passEnv } : {}) }),
  copilot: (simulated, passEnv) =>
    copilotEnvironment({
      base: parent,
      home,
      packageCache: "/cache/copilot",
      ...(simulated ? { simulator: { url: sim, model: "skillgym-sim" } } : {}),
      ...(passEnv ? { passEnv } : {}),
    }),
};

describe("allowedEnvironment", () => {
  it("passes the base (path, locale, terminal, time zone, proxy, CA) and nothing else", () => {
    expect(allowedEnvironment(parent)).toEqual(base);
  });

  it("adds the names and prefixes of the lists given", () => {
    expect(allowedEnvironment(parent, { names: ["SOME_SECRET"] }, { prefixes: ["AWS_"] })).toEqual({
      ...base,
      SOME_SECRET: "some-secret",
      AWS_ACCESS_KEY_ID: "AKIA-deploy",
      AWS_SECRET_ACCESS_KEY: "aws-deploy-secret",
    });
  });

  it("leaves the parent as it was", () => {
    const before = { ...parent };
    allowedEnvironment(parent);
    expect(parent).toEqual(before);
  });
});

describe("what a real run of each agent gets from its parent", () => {
  const own: Record<string, string[]> = {
    "claude-code": ["ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"],
    codex: ["OPENAI_API_KEY", "CODEX_API_KEY"],
    gemini: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
    opencode: [
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "GEMINI_API_KEY",
      "OPENROUTER_API_KEY",
      "OPENCODE_DISABLE_SHARE",
    ],
    copilot: ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_PROVIDER_API_KEY"],
  };
  it.each(Object.keys(agents))("%s: the base and its own settings and credentials, nothing else", (name) => {
    const env = agents[name]?.(false) ?? {};
    expect(passed(env)).toEqual(sorted([...Object.keys(base), ...(own[name] ?? [])]));
    expect(env.HOME).toBe(home);
    expect(env.NPM_TOKEN).toBeUndefined();
    expect(env.SOME_SECRET).toBeUndefined();
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
  });

  it("only Copilot CLI, Copilot's own credential, gets a GitHub token", () => {
    for (const name of ["claude-code", "codex", "gemini", "opencode"]) {
      const env = agents[name]?.(false) ?? {};
      expect([name, env.GITHUB_TOKEN, env.GH_TOKEN]).toEqual([name, undefined, undefined]);
    }
    expect(agents.copilot?.(false).GITHUB_TOKEN).toBe("ghs_repository_token");
  });

  it("OpenCode gets GITHUB_TOKEN only for a model of GitHub's own providers", () => {
    const forModel = (model: string) => openCodeEnvironment({ base: parent, home, simulated: false, model });
    expect(forModel("anthropic/claude-sonnet-4-5").GITHUB_TOKEN).toBeUndefined();
    expect(forModel("github-copilot/gpt-4.1").GITHUB_TOKEN).toBe("ghs_repository_token");
  });

  it("Claude Code gets AWS credentials only on Bedrock, Google's only on Vertex", () => {
    const google = { GOOGLE_APPLICATION_CREDENTIALS: "/keys/sa.json", CLOUD_ML_REGION: "us-east5" };
    const withProvider = (extra: NodeJS.ProcessEnv) =>
      claudeEnvironment({
        base: { ...parent, ...google, ...extra },
        home,
        credentials: { kind: "env", variable: "CLAUDE_CODE_USE_BEDROCK" },
      });
    const plain = withProvider({});
    expect([plain.AWS_SECRET_ACCESS_KEY, plain.GOOGLE_APPLICATION_CREDENTIALS]).toEqual([
      undefined,
      undefined,
    ]);
    const bedrock = withProvider({ CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "us-east-1" });
    expect(bedrock).toMatchObject({ AWS_SECRET_ACCESS_KEY: "aws-deploy-secret", AWS_REGION: "us-east-1" });
    expect(bedrock.GOOGLE_APPLICATION_CREDENTIALS).toBeUndefined();
    const vertex = withProvider({ CLAUDE_CODE_USE_VERTEX: "1" });
    expect(vertex).toMatchObject(google);
    expect(vertex.AWS_SECRET_ACCESS_KEY).toBeUndefined();
  });
});

describe("what a simulated run of each agent gets from its parent", () => {
  it.each(Object.keys(agents))("%s: the base only, no credential of any provider", (name) => {
    const env = agents[name]?.(true) ?? {};
    expect(passed(env)).toEqual(sorted(Object.keys(base)));
    for (const credential of everyCredential)
      expect([credential, env[credential]]).not.toContain(parent[credential]);
  });
});

describe("the names a suite passes on (evals.json `env`)", () => {
  it.each(Object.keys(agents))("%s: they are added, simulated or not, and nothing else", (name) => {
    const make = agents[name];
    for (const simulated of [true, false]) {
      const without = make?.(simulated) ?? {};
      const withNames = make?.(simulated, ["SKILLGYM_CANARY", "NPM_TOKEN", "NOT_SET_ANYWHERE"]) ?? {};
      expect(sorted(passed(withNames))).toEqual(sorted([...passed(without), "SKILLGYM_CANARY", "NPM_TOKEN"]));
      expect("NOT_SET_ANYWHERE" in withNames).toBe(false);
    }
  });

  it("a command check gets the base and the suite's names: no credential of any agent", () => {
    expect(checkEnvironment(parent)).toEqual(base);
    expect(checkEnvironment(parent, ["SKILLGYM_CANARY"])).toEqual({ ...base, SKILLGYM_CANARY: "canary" });
  });
});

describe("allowedEnvironment: lists and values", () => {
  it("a list of prefixes alone lets in no name by itself, a list of names alone no prefix", () => {
    const odd: NodeJS.ProcessEnv = {
      "Stryker was here": "a",
      "Stryker was here_X": "b",
      AWS_REGION: "c",
      X: "d",
    };
    expect(allowedEnvironment(odd, { prefixes: ["AWS_"] })).toEqual({ AWS_REGION: "c" });
    expect(allowedEnvironment(odd, { names: ["X"] })).toEqual({ X: "d" });
    expect(allowedEnvironment(odd, {})).toEqual({});
  });

  it("passes each name of the base: path, locale, terminal, temp folders, shell, proxy in either case, CA, Windows' system folders", () => {
    const names = [
      "PATH",
      "LANG",
      "LANGUAGE",
      "TERM",
      "COLORTERM",
      "NO_COLOR",
      "TZ",
      "TMPDIR",
      "TMP",
      "TEMP",
      "SHELL",
      "HTTP_PROXY",
      "HTTPS_PROXY",
      "NO_PROXY",
      "ALL_PROXY",
      "http_proxy",
      "https_proxy",
      "no_proxy",
      "all_proxy",
      "NODE_EXTRA_CA_CERTS",
      "NODE_USE_SYSTEM_CA",
      "SSL_CERT_FILE",
      "SSL_CERT_DIR",
      "REQUESTS_CA_BUNDLE",
      "CURL_CA_BUNDLE",
      "GIT_SSL_CAINFO",
      "SYSTEMROOT",
      "SYSTEMDRIVE",
      "WINDIR",
      "COMSPEC",
      "PATHEXT",
      "LC_TIME",
    ];
    const every = Object.fromEntries(names.map((name) => [name, `value of ${name}`]));
    expect(allowedEnvironment({ ...every, "": "no name", SECRET: "s" })).toEqual(every);
  });

  it("leaves out a variable the parent has without a value", () => {
    const env = allowedEnvironment({ PATH: undefined, TERM: "xterm" }, { names: ["SOME"] });
    expect(Object.keys(env)).toEqual(["TERM"]);
  });

  it("the suite's names as a list; none when the suite names none", () => {
    expect(suiteNames(["A", "B"])).toEqual({ names: ["A", "B"] });
    expect(suiteNames(undefined)).toEqual({ names: [] });
  });
});

describe.skipIf(process.platform === "win32")("allowedEnvironment elsewhere", () => {
  it("matches names and prefixes in their own case only", () => {
    const env = allowedEnvironment(
      { PATH: "/bin", path: "/x", lc_all: "C", aws_region: "eu" },
      { prefixes: ["AWS_"] },
    );
    expect(env).toEqual({ PATH: "/bin" });
  });
});

describe("allowedEnvironment on Windows", () => {
  const platform = Object.getOwnPropertyDescriptor(process, "platform");
  afterEach(() => {
    if (platform) Object.defineProperty(process, "platform", platform);
  });

  it("matches names and prefixes in any case", () => {
    Object.defineProperty(process, "platform", { ...platform, value: "win32" });
    const env = allowedEnvironment(
      { Path: "C:\\bin", SystemRoot: "C:\\Windows", lc_all: "C", aws_region: "eu", HOME: "C:\\u" },
      { prefixes: ["AWS_"] },
    );
    expect(env).toEqual({ Path: "C:\\bin", SystemRoot: "C:\\Windows", lc_all: "C", aws_region: "eu" });
  });
});
