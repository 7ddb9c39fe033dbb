import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentMatrix } from "../../src/contracts/matrix.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { bin, root } from "../cli/cli-process.js";
import { readJson, tempDir } from "./helpers.js";

// OpenCode needs some 10–15 CPU-seconds a run: on a shared machine a command of many runs takes half an hour.
const LONG_MS = 3_000_000;
// Fewer runs at once and a generous limit each, so a run's verdict never depends on the machine's load.
const SLOW_MACHINE = ["--concurrency", "3", "--timeout", "900"];

function skillgym(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => child.kill("SIGINT"), LONG_MS - 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function triggerRates(agent: string, workspace: string): Promise<(number | null)[]> {
  const result = await skillgym([
    "triggers",
    "examples/csv-summary",
    "--agent",
    agent,
    "--simulate",
    "--runs",
    "1",
    ...SLOW_MACHINE,
    "--workspace",
    workspace,
  ]);
  expect(result.code, result.stderr).toBeLessThanOrEqual(1);
  const results = TriggerResults.parse(
    await readJson(join(workspace, "iteration-1", "triggers", "trigger-results.json")),
  );
  expect(results.results.every((r) => r.runs === 1 && r.errors === 0)).toBe(true);
  return results.results.map((r) => r.trigger_rate);
}

describe("OpenCode and Copilot CLI without credentials", () => {
  let ws: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    ws = await tempDir();
  });
  afterAll(() => ws?.cleanup());

  it.each([
    ["opencode", "ANTHROPIC_API_KEY"],
    ["copilot", "COPILOT_GITHUB_TOKEN"],
  ])("%s: exit 3 before any run, naming what to set", async (agent, variable) => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: ws.dir };
    for (const name of Object.keys(env))
      if (/API_KEY$|_TOKEN$|^COPILOT_PROVIDER|^XDG_DATA_HOME$/.test(name)) delete env[name];
    const result = await skillgym(
      ["triggers", "examples/csv-summary", "--agent", agent, "--workspace", join(ws.dir, agent)],
      env,
    );
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain(variable);
    expect(result.stderr).not.toContain("[1/");
  });
});

describe("trigger evals of OpenCode and Copilot CLI against skillgym sim", () => {
  let ws: Awaited<ReturnType<typeof tempDir>>;
  let claudeRates: (number | null)[];
  beforeAll(async () => {
    ws = await tempDir();
    claudeRates = await triggerRates("claude-code", join(ws.dir, "claude-code"));
  }, LONG_MS);
  afterAll(() => ws?.cleanup());

  it.each(["copilot", "opencode"])(
    "`triggers examples/csv-summary --agent %s --simulate` gives exactly Claude Code's rates",
    async (agent) => {
      const rates = await triggerRates(agent, join(ws.dir, agent));
      expect(rates).toEqual(claudeRates);
      expect(rates.filter((rate) => rate === 1)).toHaveLength(10);
    },
    LONG_MS,
  );
});

describe("skillgym run --agent claude-code,codex,gemini,opencode,copilot --simulate", () => {
  const agents = ["claude-code", "codex", "gemini", "opencode", "copilot"];
  let ws: Awaited<ReturnType<typeof tempDir>>;
  let run: Awaited<ReturnType<typeof skillgym>>;
  beforeAll(async () => {
    ws = await tempDir();
    run = await skillgym([
      "run",
      "examples/release-notes",
      "--agent",
      agents.join(","),
      "--simulate",
      "--runs",
      "1",
      "--trigger-runs",
      "1",
      ...SLOW_MACHINE,
      "--trigger-timeout",
      "900",
      "--workspace",
      ws.dir,
    ]);
  }, LONG_MS);
  afterAll(() => ws?.cleanup());

  it("writes one matrix with five rows, the same rates for every agent", async () => {
    expect(run.code, run.stderr).toBe(0);
    const matrix = AgentMatrix.parse(await readJson(join(ws.dir, "iteration-1", "matrix.json")));
    expect(matrix.agents.map((a) => [a.agent, a.status])).toEqual(agents.map((a) => [a, "complete"]));
    const [first, ...others] = matrix.agents;
    for (const row of others) {
      expect(row).toMatchObject({
        with_skill_pass_rate: first?.with_skill_pass_rate,
        baseline_pass_rate: first?.baseline_pass_rate,
        errored_runs: 0,
        cost_usd: 0,
      });
      expect(row.triggers).toEqual(first?.triggers);
    }
    expect(first?.with_skill_pass_rate).toBe(1);
    const table = run.stdout
      .split("\n")
      .filter((l) => /^ {2}(claude-code|codex|gemini|opencode|copilot) /.test(l));
    expect(table).toHaveLength(5);
  });
});
