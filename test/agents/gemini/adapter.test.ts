import { mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { geminiArgs } from "../../../src/agents/gemini/args.js";
import { locateGemini } from "../../../src/agents/gemini/binary.js";
import { classifyGeminiEnd } from "../../../src/agents/gemini/classify.js";
import { findGeminiCredentials } from "../../../src/agents/gemini/credentials.js";
import { childEnvironment, prepareHome } from "../../../src/agents/gemini/environment.js";
import { approvalMode, policyToml } from "../../../src/agents/gemini/policy.js";
import { skillHidingSettings, userSettingsWarning } from "../../../src/agents/gemini/skills.js";
import type { ProcessResult } from "../../../src/agents/process/run-process.js";
import { createAgent } from "../../../src/agents/registry.js";
import { SkillgymError } from "../../../src/errors.js";
import { tempDir, writeTree } from "../../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const proc = (extra: Partial<ProcessResult> = {}): ProcessResult => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  cancelled: false,
  stopped: false,
  durationMs: 1000,
  startedAt: "",
  endedAt: "",
  stderrTail: "",
  ...extra,
});

describe("gemini adapter", () => {
  it("offers activate_skill and the eval tools to eval runs, and only activate_skill beyond reading to read-only runs", () => {
    const rules = (toml: string) => [...toml.matchAll(/toolName = "(\w+)"/g)].map((m) => m[1]);
    expect(rules(policyToml("eval"))).toEqual([
      "activate_skill",
      "run_shell_command",
      "write_file",
      "replace",
    ]);
    expect(rules(policyToml("read-only"))).toEqual(["activate_skill"]);
    expect(policyToml("eval")).toContain(
      `toolName = "run_shell_command"\ndecision = "allow"\npriority = 100\nallow_redirection = true`,
    );
    expect(policyToml("read-only")).toBe(
      `[[rule]]\ntoolName = "activate_skill"\ndecision = "allow"\npriority = 100\n`,
    );
    expect(policyToml("eval").match(/allow_redirection/g)).toHaveLength(1);
    expect(policyToml("eval")).toContain(`priority = 100\n\n[[rule]]\ntoolName = "run_shell_command"`);
    expect(approvalMode("eval")).toBe(
      "headless default + --policy allowing activate_skill, run_shell_command, write_file, replace",
    );
  });

  it("runs headless with stream-json, the policy, and the model named (no router request)", () => {
    expect(
      geminiArgs({ prompt: "Hi", model: "m", policyFile: "/h/p.toml", systemPrompt: "Be brief." }),
    ).toEqual([
      "-p",
      "Be brief.\n\nHi",
      "--output-format",
      "stream-json",
      "--policy",
      "/h/p.toml",
      "-m",
      "m",
    ]);
  });

  it("isolates home and settings per run and points the child at the simulator", async () => {
    const base = {
      PATH: "/bin",
      GEMINI_API_KEY: "real-key-123456",
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: "/etc/x",
    };
    const home = join(dir, "home");
    const env = childEnvironment({ base, home, credentials: { kind: "env", variable: "GEMINI_API_KEY" } });
    expect(env).toMatchObject({
      HOME: home,
      GEMINI_CLI_HOME: home,
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, ".gemini", "settings.json"),
      GEMINI_CLI_TRUST_WORKSPACE: "true",
      GEMINI_CLI_NO_RELAUNCH: "true",
      TMPDIR: join(home, "tmp"),
      GEMINI_API_KEY: "real-key-123456",
    });
    const sim = childEnvironment({
      base,
      home,
      credentials: { kind: "simulator" },
      simulatorUrl: "http://127.0.0.1:9",
    });
    expect(sim.GOOGLE_GEMINI_BASE_URL).toBe("http://127.0.0.1:9");
    expect(sim.GEMINI_API_KEY).not.toBe("real-key-123456");

    const files = await prepareHome(home, "eval", true);
    const settings = JSON.parse(await readFile(files.settings, "utf8"));
    expect(settings).toEqual({
      security: { auth: { selectedType: "gemini-api-key" } },
      skills: { enabled: true },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 1 },
      privacy: { usageStatisticsEnabled: false },
    });
    expect((await stat(join(home, "tmp"))).isDirectory()).toBe(true);
    expect(await readFile(files.policy, "utf8")).toContain("activate_skill");
  });

  it("fails before any run with exit-3 errors: no binary (with the install command), no key", async () => {
    await expect(locateGemini(join(dir, "missing"))).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      hint: "pass the path of a Gemini CLI binary to --agent-bin, or install it: npm install @google/gemini-cli",
    });
    expect(() => findGeminiCredentials({})).toThrow(SkillgymError);
    expect(() => findGeminiCredentials({})).toThrow(
      expect.objectContaining({
        message: "no credentials for Gemini CLI were found",
        hint: "set GEMINI_API_KEY (an API key from Google AI Studio); use --simulate for an offline dry run",
      }),
    );
    expect(findGeminiCredentials({ GEMINI_API_KEY: "k" })).toEqual({
      kind: "env",
      variable: "GEMINI_API_KEY",
    });
    await expect(createAgent("gemini", { env: { PATH: "", HOME: dir } })).rejects.toMatchObject({
      code: "NO_CREDENTIALS",
    });
  });

  it("masks the API key and names its agent, version and approval mode", async () => {
    const agent = await createAgent("gemini", {
      env: { PATH: "", HOME: dir, GEMINI_API_KEY: "AIzaSecretValue123" },
    });
    expect(agent.name).toBe("gemini");
    expect(agent.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(agent.skillsFolder).toBe(".gemini/skills");
    expect(agent.mode).toContain("activate_skill");
    expect(agent.redactor.text("key=AIzaSecretValue123")).toBe("key=[redacted:GEMINI_API_KEY]");
  });

  it("warns when the user's own settings hide skills", async () => {
    expect(
      skillHidingSettings({ skills: { enabled: false }, tools: { exclude: ["activate_skill"] } }),
    ).toEqual(["skills.enabled is false", "tools.exclude lists activate_skill"]);
    expect(skillHidingSettings({ skills: { enabled: true } })).toEqual([]);
    await writeTree(dir, { ".gemini/settings.json": JSON.stringify({ skills: { enabled: false } }) });
    expect(await userSettingsWarning(dir)).toMatch(/skills\.enabled is false/);
    const agent = await createAgent("gemini", {
      env: { PATH: "", HOME: dir },
      simulatorUrl: "http://127.0.0.1:9",
    });
    expect(agent.warnings?.[0]).toMatch(/hide skills/);
    await mkdir(join(dir, "empty"));
    expect(await userSettingsWarning(join(dir, "empty"))).toBeUndefined();
  });

  it("classifies the ends of runs", () => {
    const result = (text: string, apiErrorStatus?: number) => ({
      kind: "result" as const,
      isError: true,
      subtype: "error",
      text,
      ...(apiErrorStatus ? { apiErrorStatus } : {}),
    });
    expect(classifyGeminiEnd(proc(), { ...result(""), isError: false }).outcome).toBe("success");
    expect(classifyGeminiEnd(proc(), result("x", 429)).outcome).toBe("rate_limited");
    expect(classifyGeminiEnd(proc(), result("x", 529)).outcome).toBe("overloaded");
    expect(classifyGeminiEnd(proc(), result("x", 500)).outcome).toBe("server_error");
    expect(
      classifyGeminiEnd(proc(), result("API key not valid. Please pass a valid API key.", 400)).outcome,
    ).toBe("auth_error");
    expect(classifyGeminiEnd(proc({ timedOut: true }), undefined).outcome).toBe("timeout");
    expect(classifyGeminiEnd(proc({ cancelled: true }), undefined).outcome).toBe("cancelled");
    expect(
      classifyGeminiEnd(proc({ exitCode: 41, stderrTail: "Invalid auth method selected." }), undefined)
        .outcome,
    ).toBe("auth_error");
    expect(classifyGeminiEnd(proc({ exitCode: 139, stderrTail: "segfault" }), undefined)).toMatchObject({
      outcome: "crash",
      message: expect.stringContaining("segfault"),
    });
  });
});
