import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Grading } from "../../src/contracts/grading.js";
import { IterationState } from "../../src/contracts/iteration-state.js";
import { skillgym } from "../cli/cli-process.js";
import { readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// `--judge codex|gemini` and `tune --evaluator` through the built CLI, the real agents against the in-process sim.
let dir: string;
let cleanup: () => Promise<void>;
const skill = () => join(dir, "notes");

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(skill(), {
    "SKILL.md": skillMd(
      "notes",
      "Writes meeting notes into notes.md.",
      "Write notes.md: a title, then bullets.",
    ),
    "evals/evals.json": JSON.stringify({
      skill_name: "notes",
      evals: [
        {
          id: "one",
          prompt: "Write the meeting notes into notes.md",
          expectations: ["notes.md has a title", "notes.md records the chart decision"],
        },
      ],
    }),
    "evals/sim-script.json": JSON.stringify({
      rules: [{ skill: "notes", steps: [{ write: { path: "notes.md", content: "# Notes\n- shipped\n" } }] }],
      judge: { verdicts: [{ match: "chart", passed: false, evidence: "No chart decision in notes.md." }] },
    }),
  });
});
afterAll(() => cleanup());

async function gradingOf(workspace: string): Promise<Grading> {
  const runDir = join(workspace, "iteration-1", "eval-one", "with_skill", "run-1");
  return Grading.parse(await readJson(join(runDir, "grading.json")));
}

function evalWith(judge: string, workspace: string) {
  return skillgym([
    "eval",
    skill(),
    "--simulate",
    "--judge",
    judge,
    "--runs",
    "1",
    "--baseline",
    "none",
    "--workspace",
    workspace,
  ]);
}

describe("eval --simulate --judge codex|gemini", () => {
  it("grades with the agent judge exactly as the sim judge does on the same script", async () => {
    const reference = evalWith("sim", join(dir, "ws-sim"));
    expect(reference.code, reference.stderr).toBe(0);
    const expected = (await gradingOf(join(dir, "ws-sim"))).expectations;
    expect(expected.map((e) => e.passed)).toEqual([true, false]);
    for (const judge of ["codex", "gemini"]) {
      const workspace = join(dir, `ws-${judge}`);
      const result = evalWith(judge, workspace);
      expect(result.code, result.stderr).toBe(0);
      const grading = await gradingOf(workspace);
      expect(grading.expectations).toEqual(expected);
      expect([grading.judge_backend, grading.judge_model, grading.judge_cost_usd]).toEqual([
        judge,
        "skillgym-sim",
        0,
      ]);
    }
  });

  it("stops with exit 3 before any run when a real codex judge has no credentials", async () => {
    const home = join(dir, "bare-home");
    await writeTree(home, { "codex/.keep": "" });
    const workspace = join(dir, "ws-no-credentials");
    const result = skillgym(
      ["eval", skill(), "--judge", "codex", "--runs", "1", "--baseline", "none", "--workspace", workspace],
      // The agent (Claude Code) has a key; the judge (Codex) has none: no OPENAI_API_KEY, no auth.json.
      {
        PATH: process.env.PATH ?? "",
        HOME: home,
        CODEX_HOME: join(home, "codex"),
        ANTHROPIC_API_KEY: "sk-ant-x",
      },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("no credentials for Codex CLI");
    expect(result.stderr).toContain("OPENAI_API_KEY");
    // No iteration was started: the workspace, if made at all, is empty.
    expect(await readdir(workspace).catch(() => [])).toEqual([]);
  });
});

describe("tune --evaluator", () => {
  it("evaluates with Gemini CLI while the sim judge grades, and records the evaluator", async () => {
    const workspace = join(dir, "ws-tune");
    const result = skillgym([
      "tune",
      skill(),
      "--simulate",
      "--evaluator",
      "gemini",
      "-y",
      "--max-iterations",
      "1",
      "--runs",
      "1",
      "--workspace",
      workspace,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const [tuneName] = (await readdir(workspace)).filter((n) => n.startsWith("tune-"));
    const tuneDir = join(workspace, tuneName!);
    const state = IterationState.parse(await readJson(join(tuneDir, "iteration-state.json")));
    expect(state.status).toBe("completed");
    expect(state.evaluator).toBe("gemini");
    const evaluation = state.iterations[0]!.evaluation!;
    expect([evaluation.evaluator, evaluation.judge_model, evaluation.expectation_pass_rate]).toEqual([
      "gemini",
      "skillgym-sim",
      0.5,
    ]);
    expect(evaluation.warning).toBeUndefined();
    expect(await readFile(join(tuneDir, "final-report.md"), "utf8")).toContain(
      "- Evaluator: gemini (skillgym-sim)",
    );
    // The expectations were graded by --judge (the sim's API judge under --simulate), not by the evaluator.
    const gradings = await findFiles(tuneDir, "grading.json");
    expect(gradings.length).toBeGreaterThan(0);
    for (const file of gradings) expect((await readJson(file)).judge_backend).toBe("sim");
  });

  it("stops with exit 3 before any run when a real codex evaluator has no credentials", async () => {
    const home = join(dir, "bare-home-tune");
    await writeTree(home, { "codex/.keep": "" });
    const workspace = join(dir, "ws-tune-no-credentials");
    const result = skillgym(
      [
        "tune",
        skill(),
        "-y",
        "--judge",
        "anthropic",
        "--evaluator",
        "codex",
        "--runs",
        "1",
        "--workspace",
        workspace,
      ],
      {
        PATH: process.env.PATH ?? "",
        HOME: home,
        CODEX_HOME: join(home, "codex"),
        ANTHROPIC_API_KEY: "sk-ant-x",
      },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("no credentials for Codex CLI");
    const files = await findFiles(workspace, "transcript.jsonl").catch(() => []);
    expect(files).toEqual([]);
    expect(await findFiles(workspace, "grading.json").catch(() => [])).toEqual([]);
  });

  it("refuses an unknown evaluator with exit 2, listing the choices", () => {
    const result = skillgym(["tune", skill(), "--evaluator", "foo"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'foo' is invalid");
    expect(result.stderr).toContain("claude-code, codex, gemini, opencode, copilot, anthropic, openai, sim");
  });
});

async function findFiles(root: string, name: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name === name).map((e) => join(e.parentPath, e.name));
}
