import { spawn } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentMatrix } from "../../src/contracts/matrix.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { bin, root } from "../cli/cli-process.js";
import { readJson, tempDir } from "./helpers.js";

// OpenCode needs some 10–15 CPU-seconds a run: on a shared machine even a few runs take minutes.
const LONG_MS = 1_200_000;
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

/**
 * release-notes cut to one eval and four trigger queries (two that should trigger, a near miss the simulated model
 * takes anyway, one it leaves): every agent's rates differ from query to query, at six runs an agent.
 */
async function smallReleaseNotes(dir: string): Promise<string> {
  const skill = join(dir, "release-notes");
  await cp(join(root, "examples", "release-notes"), skill, { recursive: true });
  const triggers = JSON.parse(await readFile(join(skill, "evals", "triggers.json"), "utf8")) as unknown[];
  await writeFile(
    join(skill, "evals", "triggers.json"),
    JSON.stringify([0, 1, 10, 12].map((i) => triggers[i])),
  );
  return skill;
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

// OpenCode and Copilot CLI beside Claude Code in one run: their rows must equal Claude Code's. Codex and Gemini CLI in a
// run of several agents are test/e2e/agents-run.agents.test.ts's, whose rows equal Claude Code's too.
describe("skillgym run --agent claude-code,opencode,copilot --simulate", () => {
  const agents = ["claude-code", "opencode", "copilot"];
  let ws: Awaited<ReturnType<typeof tempDir>>;
  let run: Awaited<ReturnType<typeof skillgym>>;
  beforeAll(async () => {
    ws = await tempDir();
    run = await skillgym([
      "run",
      await smallReleaseNotes(ws.dir),
      "--only",
      "basic",
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
      join(ws.dir, "workspace"),
    ]);
  }, LONG_MS);
  afterAll(() => ws?.cleanup());

  it("writes one matrix with a row per agent, the same rates for every agent", async () => {
    expect(run.code, run.stderr).toBe(0);
    const matrix = AgentMatrix.parse(await readJson(join(ws.dir, "workspace", "iteration-1", "matrix.json")));
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
    const triggers = TriggerResults.parse(
      await readJson(
        join(ws.dir, "workspace", "iteration-1", "claude-code", "triggers", "trigger-results.json"),
      ),
    );
    expect(triggers.results.map((r) => [r.should_trigger, r.trigger_rate])).toEqual([
      [true, 1],
      [true, 1],
      [false, 1],
      [false, 0],
    ]);
    const table = run.stdout.split("\n").filter((l) => /^ {2}(claude-code|opencode|copilot) /.test(l));
    expect(table).toHaveLength(3);
  });
});
