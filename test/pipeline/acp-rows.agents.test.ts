import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { AgentMatrix } from "../../src/contracts/matrix.js";
import { skillgymHere } from "../cli/cli-in-process.js";
import { readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// Qwen Code (an ACP agent) as a row beside real Claude Code in one run, against one simulator; and alone, at the same
// time, into another workspace: its row must say what its own run says. One eval, one run each: Qwen Code takes
// 10–25 s to start on a loaded machine, which is most of this file's time.
let dir: string;
let cleanup: () => Promise<void>;
let several: Awaited<ReturnType<typeof skillgymHere>>;
let alone: Awaited<ReturnType<typeof skillgymHere>>;

const run = (agents: string, workspace: string) =>
  skillgymHere([
    "run",
    join(dir, "haiku"),
    "--agent",
    agents,
    "--simulate",
    "--runs",
    "1",
    "--workspace",
    join(dir, workspace),
  ]);

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku poem. Use when the user asks for a haiku.",
      "# haiku\n",
    ),
    "haiku/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "write a haiku about rain into poem.txt",
          checks: [{ type: "skill_invoked", skill: "haiku" }],
        },
      ],
    }),
    "haiku/sim-script.json": JSON.stringify({
      rules: [
        {
          match: "haiku about rain",
          skill: "haiku",
          steps: [{ write: { path: "poem.txt", content: "rain\n" } }],
        },
      ],
    }),
  });
  [several, alone] = await Promise.all([run("claude-code,qwen-code", "several"), run("qwen-code", "alone")]);
}, 170_000);
afterAll(() => cleanup?.());

describe("run --agent claude-code,qwen-code --simulate", () => {
  it("gives Qwen Code's row the rates Qwen Code gives alone", async () => {
    expect(several.code, several.stderr).toBe(0);
    expect(alone.code, alone.stderr).toBe(0);
    const matrix = AgentMatrix.parse(await readJson(join(dir, "several", "iteration-1", "matrix.json")));
    expect(matrix.agents.map((row) => [row.agent, row.dir, row.status])).toEqual([
      ["claude-code", "claude-code", "complete"],
      ["qwen-code", "qwen-code", "complete"],
    ]);
    const row = matrix.agents[1]!;
    const own = Benchmark.parse(await readJson(join(dir, "alone", "iteration-1", "benchmark.json")));
    expect(row.with_skill_pass_rate).toBe(own.run_summary.with_skill?.pass_rate.mean);
    expect(row.baseline_pass_rate).toBe(own.run_summary.without_skill?.pass_rate.mean);
    expect(row.delta_pass_rate).toEqual(own.statistics?.delta_pass_rate ?? null);
    expect(row.graded_runs).toBe(own.runs.length);
    // The script loads the skill when the run has it: not a coincidence of zeros.
    expect([row.with_skill_pass_rate, row.baseline_pass_rate], JSON.stringify(own.runs)).toEqual([1, 0]);
  });
});
