import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Agent, AgentRunRequest, AgentRunResult } from "../../src/agents/agent.js";
import { claudeBuiltinSkills } from "../../src/agents/claude-code/builtin-skills.js";
import { claudeCodeEntry } from "../../src/agents/claude-code/entry.js";
import { systemSkills } from "../../src/agents/codex/skill-load.js";
import type { ToolUseEvent } from "../../src/agents/events.js";
import { geminiBuiltinSkills } from "../../src/agents/gemini/builtin-skills.js";
import { qwenBuiltinSkills } from "../../src/agents/qwen-code/skills.js";
import {
  ACP_AGENT_FORM,
  agentLogin,
  agentNames,
  builtinSkillsOf,
  createAgent,
  defaultAgentName,
  isToolNamed,
  parseStoredTranscript,
  skillLoadOf,
} from "../../src/agents/registry.js";
import { createRedactor } from "../../src/redact.js";

let dir: string;
let claude: string;
let bwrapDir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-registry-"));
  claude = join(dir, "claude");
  await writeFile(claude, "#!/bin/sh\n", { mode: 0o755 });
  bwrapDir = join(dir, "bin");
  await mkdir(bwrapDir);
  await writeFile(join(bwrapDir, "bwrap"), "#!/bin/sh\n", { mode: 0o755 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the agents by name", () => {
  it("names every agent but the ACP form, Claude Code the default", () => {
    expect(agentNames).toEqual(["claude-code", "codex", "gemini", "opencode", "copilot", "qwen-code"]);
    expect(ACP_AGENT_FORM).toBe("acp:<command…>");
    expect(defaultAgentName).toBe("claude-code");
  });

  it("refuses an unknown name, listing the known ones", async () => {
    await expect(createAgent("claud")).rejects.toThrow(
      'unknown agent "claud" (known: claude-code, codex, gemini, opencode, copilot, qwen-code)',
    );
    expect(() => parseStoredTranscript("nope", "")).toThrow('unknown agent "nope"');
    // `acp-<program>` only as a prefix: a name holding it elsewhere is no ACP agent.
    await expect(createAgent("my-acp-agent")).rejects.toThrow('unknown agent "my-acp-agent"');
    expect(() => parseStoredTranscript("x-acp-goose", "")).toThrow('unknown agent "x-acp-goose"');
  });

  it("each agent's built-in skills; an ACP agent's by its program; none for another name", () => {
    expect(builtinSkillsOf("claude-code")).toBe(claudeBuiltinSkills);
    expect(builtinSkillsOf("codex")).toBe(systemSkills);
    expect(builtinSkillsOf("acp-gemini")).toBe(geminiBuiltinSkills);
    expect(builtinSkillsOf("acp:gemini --acp")).toEqual([]);
    expect(builtinSkillsOf("acp-qwen")).toBe(qwenBuiltinSkills);
    expect(builtinSkillsOf("acp-goose")).toEqual([]);
    expect(builtinSkillsOf("acp")).toEqual([]);
    expect(builtinSkillsOf("unknown")).toEqual([]);
    expect(builtinSkillsOf(undefined)).toEqual([]);
    expect(builtinSkillsOf("")).toEqual([]);
  });

  it("parses a stored transcript by the agent that wrote it", () => {
    const line = JSON.stringify({ type: "thread.started", thread_id: "t" });
    expect(parseStoredTranscript("codex", line)).toEqual([
      { kind: "init", model: "", tools: [], skills: [], sessionId: "t" },
    ]);
    const acpInit = JSON.stringify({
      from: "skillgym",
      init: { kind: "init", model: "m", tools: [], skills: [], sessionId: "s" },
    });
    const init = { kind: "init", model: "m", tools: [], skills: [], sessionId: "s" };
    expect(parseStoredTranscript("qwen-code", acpInit)).toEqual([init]);
    expect(parseStoredTranscript("acp-goose", acpInit)).toEqual([init]);
    for (const name of ["claude-code", "gemini", "opencode", "copilot"])
      expect([name, parseStoredTranscript(name, "{oops")]).toEqual([
        name,
        [{ kind: "unknown", type: "non-json" }],
      ]);
    expect(parseStoredTranscript("acp-goose", "")).toEqual([]);
    expect(parseStoredTranscript("acp:goose acp", "")).toEqual([]);
  });

  it("an ACP agent's login is its own", async () => {
    expect(await agentLogin("acp-goose")).toBe(
      "the agent's own login (its environment as evals.json `env` names it)",
    );
    await expect(createAgent("acp")).rejects.toMatchObject({
      code: "USAGE",
      message: "--agent acp needs the agent's command",
    });
  });
});

describe("agentLogin", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("says where each agent's login comes from (fake keys, no login file)", async () => {
    const nobody = join(dir, "nobody");
    const keys: Record<string, string> = {
      HOME: nobody,
      CLAUDE_CONFIG_DIR: nobody,
      CODEX_HOME: "",
      XDG_DATA_HOME: "",
      ANTHROPIC_API_KEY: "fake-anthropic",
      OPENAI_API_KEY: "fake-openai",
      GEMINI_API_KEY: "fake-gemini",
      COPILOT_GITHUB_TOKEN: "fake-copilot",
    };
    const blank = [
      "CLAUDE_CODE_OAUTH_TOKEN",
      "CODEX_API_KEY",
      "GOOGLE_API_KEY",
      "GOOGLE_GENERATIVE_AI_API_KEY",
      "OPENROUTER_API_KEY",
      "OPENCODE_API_KEY",
      "GROQ_API_KEY",
      "XAI_API_KEY",
      "MISTRAL_API_KEY",
      "DEEPSEEK_API_KEY",
      "AZURE_API_KEY",
      "GITHUB_TOKEN",
      "GH_TOKEN",
      "COPILOT_PROVIDER_BASE_URL",
    ];
    for (const [name, value] of Object.entries(keys)) vi.stubEnv(name, value);
    for (const name of blank) vi.stubEnv(name, "");
    const logins: Record<string, string> = {};
    for (const name of [...agentNames, "acp-goose"]) logins[name] = await agentLogin(name);
    expect(logins).toEqual({
      "claude-code": "ANTHROPIC_API_KEY",
      codex: "OPENAI_API_KEY",
      gemini: "GEMINI_API_KEY",
      opencode: "ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY",
      copilot: "COPILOT_GITHUB_TOKEN",
      "qwen-code": "OPENAI_API_KEY",
      "acp-goose": "the agent's own login (its environment as evals.json `env` names it)",
    });
  });
});

describe("createAgent", () => {
  it("passes the suite's names on, and no sandbox unless asked", async () => {
    const agent = await createAgent("claude-code", {
      binary: claude,
      simulatorUrl: "http://127.0.0.1:9",
      env: { PATH: bwrapDir },
      passEnv: ["SUITE_VAR"],
    });
    expect(agent.passEnv).toEqual(["SUITE_VAR"]);
    expect(agent.sandboxed).toBeUndefined();
    const plain = await createAgent("claude-code", {
      binary: claude,
      simulatorUrl: "http://127.0.0.1:9",
      passEnv: [],
    });
    expect("passEnv" in plain).toBe(false);
  });

  it("a sandboxed agent: bubblewrap from PATH, the simulator's network under --simulate, the API's hosts otherwise", async () => {
    const simulated = await createAgent("claude-code", {
      binary: claude,
      simulatorUrl: "http://127.0.0.1:9",
      env: { PATH: bwrapDir },
      sandbox: true,
    });
    expect(simulated.sandboxed).toBe(true);
    expect(simulated.sandbox).toEqual({
      bwrap: join(bwrapDir, "bwrap"),
      network: { kind: "simulator", url: "http://127.0.0.1:9" },
    });
    const real = await createAgent("claude-code", {
      binary: claude,
      env: { PATH: bwrapDir, ANTHROPIC_API_KEY: "fake-anthropic-key", HOME: join(dir, "home") },
      sandbox: true,
    });
    expect(real.sandbox).toEqual({
      bwrap: join(bwrapDir, "bwrap"),
      network: { kind: "api", hosts: ["api.anthropic.com"] },
    });
    expect(real.name).toBe("claude-code");
  });

  it("a sandboxed agent's run gets its sandbox, or the narrower one the run asks for", async () => {
    const seen: AgentRunRequest[] = [];
    const inner: Agent = {
      name: "claude-code",
      skillsFolder: ".claude/skills",
      binary: claude,
      simulated: true,
      redactor: createRedactor([]),
      run: async (request) => {
        seen.push(request);
        return { outcome: "success" } as AgentRunResult;
      },
    };
    const create = vi.spyOn(claudeCodeEntry, "create").mockResolvedValue(inner);
    try {
      const agent = await createAgent("claude-code", {
        binary: claude,
        simulatorUrl: "http://127.0.0.1:9",
        env: { PATH: bwrapDir },
        sandbox: true,
      });
      const request: AgentRunRequest = { prompt: "hi", cwd: dir, home: dir, timeoutMs: 1000 };
      const narrow = {
        bwrap: "/other/bwrap",
        network: { kind: "simulator" as const, url: "http://127.0.0.1:8" },
      };
      await agent.run(request);
      await agent.run({ ...request, sandbox: narrow });
      expect(seen.map((r) => r.sandbox)).toEqual([agent.sandbox, narrow]);
      expect(agent.sandbox).toEqual({
        bwrap: join(bwrapDir, "bwrap"),
        network: { kind: "simulator", url: "http://127.0.0.1:9" },
      });
    } finally {
      create.mockRestore();
    }
  });

  it("without bubblewrap, a sandboxed agent is refused before the agent is looked for", async () => {
    await expect(
      createAgent("claude-code", {
        binary: join(dir, "missing"),
        env: { PATH: join(dir, "empty") },
        sandbox: true,
      }),
    ).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "--sandbox needs bubblewrap (`bwrap`), which is not on PATH",
    });
  });
});

const tool = (name: string, input: Record<string, unknown>, kind?: ToolUseEvent["tool"]): ToolUseEvent => ({
  kind: "tool_use",
  id: "t",
  name,
  input,
  ...(kind ? { tool: kind } : {}),
});

describe("skillLoadOf and isToolNamed", () => {
  it("a skill_load names its skill; an old Claude Code tool call is read by Claude Code's rule", () => {
    expect(skillLoadOf({ kind: "skill_load", skill: "haiku", via: "tool", toolUseId: "t" })).toBe("haiku");
    expect(skillLoadOf(tool("Skill", { skill: "/haiku" }))).toBe("haiku");
    expect(skillLoadOf(tool("Skill", { skill: "haiku" }, "skill"))).toBeUndefined();
    expect(skillLoadOf({ kind: "text", text: "Skill" })).toBeUndefined();
  });

  it("by name or kind; a suite's Claude Code name matches another agent's call of that kind", () => {
    expect(isToolNamed(tool("Read", {}), "Read")).toBe(true);
    expect(isToolNamed(tool("read_file", {}, "read"), "read")).toBe(true);
    expect(isToolNamed(tool("read_file", {}, "read"), "Read")).toBe(true);
    expect(isToolNamed(tool("read_file", {}, "shell"), "Read")).toBe(false);
    expect(isToolNamed(tool("read_file", {}), "Read")).toBe(false);
    // A name that is none of Claude Code's tools matches by name alone, not an unkinded call of another name.
    expect(isToolNamed(tool("read_file", {}), "write_file")).toBe(false);
    // A Claude Code call of another name is not the tool named, even of the same kind.
    expect(isToolNamed(tool("Glob", {}, "search"), "Grep")).toBe(false);
    expect(isToolNamed(tool("grep", {}, "search"), "Grep")).toBe(true);
    expect(isToolNamed(tool("grep", {}, "search"), "unknown_tool")).toBe(false);
  });
});
