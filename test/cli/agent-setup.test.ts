import { chmod } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { Command } from "commander";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { checkCredentials, createSetup, withEvalOptions } from "../../src/cli/agent-setup.js";
import { SkillgymError } from "../../src/errors.js";
import { executableDouble } from "../agent-double/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { resultLine, scriptedClaude } from "../judge/scripted-claude.js";
import { claudeRequest, postJson } from "../sim/sim-client.js";

const missing = join(import.meta.dirname, "no-such-agent-binary");
// The scripted ACP agent (test/acp-double), which offers no choice of model.
const ACP_DOUBLE = `acp:node ${join(import.meta.dirname, "..", "acp-double", "agent.mjs")}`;

async function judgeError(flags: Parameters<typeof createSetup>[0]): Promise<unknown> {
  const setup = createSetup({ simulate: true, ...flags });
  try {
    await setup.judge();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await setup.close();
  }
}

describe("--agent-bin and the judge", () => {
  it("goes to an agent judge only when the judge is the agent", async () => {
    const same = await judgeError({ agent: "codex", agentBin: missing, judge: "codex" });
    expect(same).toBeInstanceOf(SkillgymError);
    expect((same as SkillgymError).code).toBe("AGENT_UNAVAILABLE");
    expect(await judgeError({ agent: "claude-code", agentBin: missing, judge: "codex" })).toBeUndefined();
    expect(await judgeError({ agent: "codex", agentBin: missing, judge: "gemini" })).toBeUndefined();
    expect(await judgeError({ agent: "codex", agentBin: missing, judge: "claude-code" })).toBeUndefined();
    // No --agent: the agent is Claude Code, so a claude-code judge runs --agent-bin too.
    expect(await judgeError({ agentBin: missing, judge: "claude-code" })).toMatchObject({
      code: "AGENT_UNAVAILABLE",
    });
  });

  it("builds another backend by name beside the --judge one (tune's --evaluator)", async () => {
    const setup = createSetup({ simulate: true, judge: "sim" });
    try {
      const [judge, evaluator] = await Promise.all([setup.judge(), setup.judge(undefined, "gemini")]);
      expect([judge.backend, evaluator.backend]).toEqual(["sim", "gemini"]);
      expect(await setup.judge()).toBe(judge);
      expect(await setup.judge(undefined, "gemini")).toBe(evaluator);
    } finally {
      await setup.close();
    }
  });
});

describe("the agents and judges of a command", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let binary: string;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    binary = await executableDouble(dir);
    await writeTree(dir, {
      "yaml/sim-script.yaml": "rules: []\n",
      "yaml/evals.json": JSON.stringify({ skill_name: "x", env: ["FOO_TOKEN"], evals: [] }),
      "yml/sim-script.yml": "rules: []\n",
      "json/sim-script.json": JSON.stringify({ rules: [] }),
      "json/sim-script.yaml": "rules: []\n",
      "bare/evals.json": JSON.stringify({ skill_name: "x", evals: [] }),
      "other.json": JSON.stringify({ rules: [] }),
      "sandboxed/evals.json": JSON.stringify({ skill_name: "x", sandbox: true, evals: [] }),
      "gemini-home/.gemini/settings.json": JSON.stringify({ skills: { enabled: false } }),
      // A stand-in for bubblewrap on PATH: a sandboxed agent is only made here, never run.
      "bin/bwrap": "#!/bin/sh\n",
      "judge/README": "the scripted claude of the judge's test\n",
    });
    await chmod(join(dir, "bin/bwrap"), 0o755);
  });
  afterAll(() => cleanup());
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  // What an agent is, without its functions.
  const facts = ({ name, binary, simulated, simScript, passEnv, apiBaseUrl }: Agent) => ({
    name,
    binary,
    simulated,
    simScript,
    passEnv,
    simulator: apiBaseUrl?.startsWith("http://127.0.0.1:") ?? false,
  });

  it("runs a simulated agent on the suite's sim-script, json before yaml before yml, passing the suite's env", async () => {
    const setup = createSetup({ simulate: true, agentBin: binary });
    try {
      expect(facts(await setup.agent(join(dir, "yaml")))).toEqual({
        name: "claude-code",
        binary,
        simulated: true,
        simScript: join(dir, "yaml/sim-script.yaml"),
        passEnv: ["FOO_TOKEN"],
        simulator: true,
      });
    } finally {
      await setup.close();
    }
    for (const [suite, script] of [
      ["json", "json/sim-script.json"],
      ["yml", "yml/sim-script.yml"],
    ]) {
      const another = createSetup({ simulate: true, agentBin: binary });
      try {
        expect((await another.agent(join(dir, suite as string))).simScript).toBe(join(dir, script as string));
      } finally {
        await another.close();
      }
    }
  });

  it("takes --sim-script over the suite's, and no script where there is none", async () => {
    const given = createSetup({ simulate: true, agentBin: binary, simScript: join(dir, "other.json") });
    const none = createSetup({ simulate: true, agentBin: binary });
    try {
      expect((await given.agent(join(dir, "json"))).simScript).toBe(join(dir, "other.json"));
      expect((await none.agent(join(dir, "bare"))).simScript).toBeNull();
    } finally {
      await given.close();
      await none.close();
    }
  });

  it("starts one simulator for all of a command's agents and judges, and closes it", async () => {
    const setup = createSetup({ simulate: true, agentBin: binary });
    const first = await setup.agent();
    const second = await setup.agent({ dir: join(dir, "yaml"), env: ["BAR"] });
    expect(second.apiBaseUrl).toBe(first.apiBaseUrl);
    expect(second.passEnv).toEqual(["BAR"]);
    expect(first.passEnv).toBeUndefined();
    expect(first.simScript).toBeNull();
    expect((await setup.agent({ dir: join(dir, "yaml") })).passEnv).toBeUndefined();
    const judge = await setup.judge();
    expect([judge.backend, judge.model, judge.simulated]).toEqual(["sim", "skillgym-sim", true]);
    const answer = await fetch(`${first.apiBaseUrl}/v1/messages`, { method: "POST", body: "{}" });
    expect(answer.status).toBeGreaterThan(0);
    await setup.close();
    await expect(fetch(`${first.apiBaseUrl}/v1/messages`, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("runs the real agent without --simulate: no simulator, no script", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-test");
    const setup = createSetup({ agentBin: binary });
    try {
      const agent = await setup.agent(join(dir, "json"));
      expect(facts(agent)).toEqual({
        name: "claude-code",
        binary,
        simulated: false,
        simScript: undefined,
        passEnv: undefined,
        simulator: false,
      });
      expect("simScript" in agent).toBe(false);
    } finally {
      await setup.close();
    }
  });

  it("makes the agent --agent names, or the one asked for", async () => {
    const setup = createSetup({ agent: "codex", agentBin: binary, simulate: true });
    try {
      expect((await setup.agent()).name).toBe("codex");
      expect((await setup.agent(undefined, "gemini")).name).toBe("gemini");
    } finally {
      await setup.close();
    }
  });

  it("makes the judge --judge names with its model, or claude-code with no simulator", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-test");
    const named = createSetup({ judge: "anthropic", judgeModel: "judge-model-1" });
    const plain = createSetup({ agentBin: binary });
    try {
      const judge = await named.judge();
      expect([judge.backend, judge.model, judge.simulated]).toEqual(["anthropic", "judge-model-1", false]);
      const fallback = await plain.judge();
      expect([fallback.backend, fallback.simulated]).toEqual(["claude-code", false]);
    } finally {
      await named.close();
      await plain.close();
    }
  });

  it("says where each agent logs in from, and that the judge is ready when one is needed", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-test");
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
    const setup = createSetup({ simulate: true, agentBin: binary });
    try {
      expect(await checkCredentials(setup, { agentBin: binary }, { judge: "grader" })).toBe(
        "credentials: Claude Code logs in with ANTHROPIC_API_KEY; grader (claude-code): ready",
      );
      expect(
        await checkCredentials(setup, { agent: "claude-code,codex", judge: "sim" }, { judge: "evaluator" }),
      ).toBe(
        "credentials: Claude Code logs in with ANTHROPIC_API_KEY; codex logs in with OPENAI_API_KEY; evaluator (sim): ready",
      );
      expect(await checkCredentials(setup, { agent: "codex" }, {})).toBe(
        "credentials: codex logs in with OPENAI_API_KEY",
      );
    } finally {
      await setup.close();
    }
  });

  it("fails as a run would when an agent has no login", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("CODEX_API_KEY", "");
    vi.stubEnv("CODEX_HOME", join(dir, "no-codex-home"));
    const setup = createSetup({ simulate: true, agentBin: binary });
    try {
      await expect(checkCredentials(setup, { agent: "codex" }, {})).rejects.toMatchObject({
        code: "NO_CREDENTIALS",
      });
    } finally {
      await setup.close();
    }
  });

  it('sandboxes the agents and an agent judge on --sandbox or the suite\'s "sandbox": true, and nothing else', async () => {
    vi.stubEnv("PATH", `${join(dir, "bin")}${delimiter}${process.env.PATH ?? ""}`);
    const flags = { simulate: true, agentBin: binary, judge: "claude-code" } as const;
    const asked = createSetup({ ...flags, sandbox: true });
    const bySuite = createSetup(flags);
    const plain = createSetup(flags);
    try {
      expect((await asked.agent()).sandboxed).toBe(true);
      expect((await asked.judge()).sandboxed).toBe(true);
      expect((await bySuite.agent(join(dir, "sandboxed"))).sandboxed).toBe(true);
      // The judge of a sandboxed agent is sandboxed too, asked for without the suite.
      expect((await bySuite.judge()).sandboxed).toBe(true);
      expect((await plain.agent(join(dir, "bare"))).sandboxed).toBeUndefined();
      expect((await plain.judge()).sandboxed).toBeUndefined();
    } finally {
      await Promise.all([asked.close(), bySuite.close(), plain.close()]);
    }
  });

  it("runs an agent judge with the variables the suite passes on", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-test");
    vi.stubEnv("SUITE_TOKEN", "suite-value");
    const claude = await scriptedClaude(join(dir, "judge"), { lines: [resultLine("verdict")] });
    const setup = createSetup({ agentBin: claude.binary, judge: "claude-code" });
    const request = { system: "You grade runs.", prompt: "Grade it." };
    try {
      await (await setup.judge({ env: ["SUITE_TOKEN"] })).complete(request);
      await (await setup.judge(undefined, "claude-code")).complete(request);
      const [passed, plain] = await claude.calls();
      expect(passed!.env.SUITE_TOKEN).toBe("suite-value");
      expect(plain!.env.SUITE_TOKEN).toBeUndefined();
    } finally {
      await setup.close();
    }
  });

  it("waits --sim-latency-ms before each of the simulator's agent turns", async () => {
    const setup = createSetup({ simulate: true, agentBin: binary, simLatencyMs: 200 });
    try {
      const { apiBaseUrl } = await setup.agent();
      const started = Date.now();
      await postJson(apiBaseUrl!, claudeRequest({ prompt: "a task" }), "s1");
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    } finally {
      await setup.close();
    }
  });

  it("refuses a --model the agent offers no choice of when the agent is made", async () => {
    const setup = createSetup({ agent: ACP_DOUBLE, model: "big-model" });
    try {
      await expect(setup.agent()).rejects.toThrow(/offers no model selection over ACP/);
    } finally {
      await setup.close();
    }
  });

  it("shows the agent's warnings before its runs, and nothing for an agent without any", async () => {
    vi.stubEnv("HOME", join(dir, "gemini-home"));
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const setup = createSetup({ simulate: true, agentBin: binary });
    try {
      await setup.agent();
      expect(stderr).not.toHaveBeenCalled();
      await setup.agent(undefined, "gemini");
      expect(stderr.mock.calls.map(([text]) => text)).toEqual([
        expect.stringMatching(/^warning: .*settings\.json: .*skills\.enabled is false.*\n$/),
      ]);
    } finally {
      stderr.mockRestore();
      await setup.close();
    }
  });
});

describe("the eval flags' --model", () => {
  it("takes one model unless the command runs several", () => {
    const model = (command: Command) => command.options.find((o) => o.long === "--model");
    const one = model(withEvalOptions(new Command("noise"), 3));
    expect([one?.flags, one?.description]).toEqual(["--model <model>", "the agent's model"]);
    expect(model(withEvalOptions(new Command("run"), 3, true))?.flags).toBe("--model <models>");
  });
});
