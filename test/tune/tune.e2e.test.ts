import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { History } from "../../src/contracts/history.js";
import { IterationState } from "../../src/contracts/iteration-state.js";
import { hashSkill } from "../../src/skill/index.js";
import { mainOnDouble } from "../agent-double/index.js";
import { readJson, tempDir, writeTree } from "../e2e/helpers.js";
import { skillMd, tuneWithSim } from "./tune-helpers.js";

const GOOD = "Writes greeting cards. Use when asked for a greeting card.";
const OFF_TOPIC = "Formats invoices. Use for billing documents.";
const v0Skill = (description: string) => skillMd("greeter", description, "Write card.txt for the guest.");
const v1Skill = skillMd("greeter", GOOD, "BETTER-STEPS: read the guest's name, then write card.txt.");

const greeterEvals = JSON.stringify({
  evals: [
    {
      id: 1,
      prompt: "Please make a greeting card for Ada",
      expectations: [],
      checks: [{ type: "file_contains", path: "card.txt", pattern: "Ada" }],
    },
  ],
});

// The executor writes card.txt only when the skill loads (its description matches the prompt).
const writesCard = {
  match: "greeting card",
  steps: [{ write: { path: "card.txt", content: "Hello, Ada!\n" } }],
};

// The improver of iteration `round` replaces SKILL.md (read first: Claude Code writes only files it has read).
function improverWrites(round: number, content: string, notes: string) {
  return {
    match: `tune iteration ${round}\\b`,
    skill: "none",
    without_skill: [
      { read: "greeter/SKILL.md" },
      { write: { path: "greeter/SKILL.md", content } },
      { write: { path: `iteration-${round}-changes.md`, content: notes } },
    ],
  };
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

async function state(tuneDir: string): Promise<IterationState> {
  return IterationState.parse(await readJson(join(tuneDir, "iteration-state.json")));
}

async function history(tuneDir: string): Promise<History> {
  return History.parse(await readJson(join(tuneDir, "history.json")));
}

describe("skillgym tune with the Claude Code test double against skillgym sim", () => {
  it("keeps a version that scores better, stops at the threshold, and changes the skill only with --apply", async () => {
    await writeTree(dir, {
      "greeter/SKILL.md": v0Skill(OFF_TOPIC),
      "greeter/evals/evals.json": greeterEvals,
    });
    const script = join(dir, "sim-script.json");
    await writeFile(
      script,
      JSON.stringify({
        rules: [improverWrites(1, v1Skill, "- Said when to use it; BETTER-STEPS\n"), writesCard],
        judge: { rubric: { default: 60, when: [{ match: "BETTER-STEPS", score: 90 }] } },
      }),
    );
    const skillBefore = await readFile(join(dir, "greeter", "SKILL.md"));
    const common = ["--simulate", "--sim-script", script, "--json"];
    const io = captureIo();
    const code = await mainOnDouble(
      [
        "tune",
        join(dir, "greeter"),
        "-y",
        "--runs",
        "1",
        "--threshold",
        "90",
        "--workspace",
        join(dir, "ws"),
        ...common,
      ],
      io,
    );
    expect(code, io.stderr()).toBe(0);
    const out = JSON.parse(io.stdout());
    // v0 never loads (its description is off-topic): pass rate 0, rubric 60 → 30. v1 loads: 100% and 90 → 95.
    expect(out).toMatchObject({
      status: "completed",
      termination_reason: "quality_threshold_met",
      simulated: true,
      best_version: "v1",
      best_score: 95,
      score_trend: [30, 95],
      applied: null,
    });
    expect(out.iterations.map((it: { grading_result: string }) => it.grading_result)).toEqual([
      "baseline",
      "won",
    ]);
    const tuneDir: string = out.tune_dir;
    expect(tuneDir.startsWith(join(dir, "ws", "tune-"))).toBe(true);
    expect(await readFile(join(dir, "greeter", "SKILL.md"))).toEqual(skillBefore);

    const s = await state(tuneDir);
    expect(s).toMatchObject({ target_skills: ["greeter"], execution_mode: "single", current_best: "v1" });
    expect(s.iterations[0]?.improvement).toMatchObject({ rolled_back: false, target_skills: ["greeter"] });
    expect(s.iterations[1]?.improvement).toBeNull();
    expect(
      (await history(tuneDir)).iterations.map((i) => [i.version, i.grading_result, i.is_current_best]),
    ).toEqual([
      ["v0", "baseline", false],
      ["v1", "won", true],
    ]);
    expect(await readFile(join(tuneDir, "iterations/iteration-1/iteration-1-changes.md"), "utf8")).toContain(
      "BETTER-STEPS",
    );
    expect(
      await readFile(join(tuneDir, "iterations/iteration-2/skill-snapshot/greeter/SKILL.md"), "utf8"),
    ).toBe(v1Skill);
    const grading = await readJson(
      join(
        tuneDir,
        "iterations/iteration-2/execution/greeter/iteration-1/eval-1/with_skill/run-1/grading.json",
      ),
    );
    expect(grading.summary).toMatchObject({ pass_rate: 1 });
    const report = await readFile(join(tuneDir, "final-report.md"), "utf8");
    expect(report).toContain("| 2 | v1 | 95 | 100% | 90 | 90 | 90 | 90 | 90 | won |");
    expect(report).toContain("+BETTER-STEPS: read the guest's name, then write card.txt.");
    expect(report).toContain(`skillgym tune --resume ${tuneDir} --apply`);

    const apply = captureIo();
    expect(
      await mainOnDouble(["tune", "--resume", tuneDir, "--apply", ...common], apply),
      apply.stderr(),
    ).toBe(0);
    expect(JSON.parse(apply.stdout())).toMatchObject({ applied: ["greeter"], best_version: "v1" });
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toBe(v1Skill);
    expect(await readFile(join(dir, "greeter", "evals", "evals.json"), "utf8")).toBe(greeterEvals);
  });

  it("rolls a losing version back: the best stays, and the next edit starts from it", async () => {
    await writeTree(dir, { "greeter/SKILL.md": v0Skill(GOOD), "greeter/evals/evals.json": greeterEvals });
    const worse = skillMd("greeter", GOOD, "WORSE-STEPS: guess the name.");
    const result = await tuneWithSim(
      {
        rules: [
          improverWrites(1, worse, "- WORSE-STEPS\n"),
          {
            match: "tune iteration 2\\b",
            skill: "none",
            without_skill: [
              { write: { path: "greeter/references/tips.md", content: "Greet by name.\n" } },
              { write: { path: "iteration-2-changes.md", content: "- Added tips\n" } },
            ],
          },
          writesCard,
        ],
        judge: { rubric: { default: 60, when: [{ match: "WORSE-STEPS", score: 20 }] } },
      },
      { skillPaths: [join(dir, "greeter")], maxIterations: 3, threshold: 99, workspace: join(dir, "ws") },
    );
    const s = await state(result.tuneDir);
    expect(s.score_trend).toEqual([80, 60, 80]);
    expect(s).toMatchObject({
      current_best: "v0",
      best_score: 80,
      termination_reason: "max_iterations_reached",
    });
    expect((await history(result.tuneDir)).iterations.map((i) => i.grading_result)).toEqual([
      "baseline",
      "lost",
      "tie",
    ]);
    // Iteration 2's edit started from v0, not from the losing v1, and was told what had not worked.
    expect(s.iterations[1]?.improvement?.from_version).toBe("v0");
    const v2 = join(result.tuneDir, "iterations/iteration-3/skill-snapshot/greeter");
    expect(await readFile(join(v2, "SKILL.md"), "utf8")).toBe(v0Skill(GOOD));
    expect(await readFile(join(v2, "references/tips.md"), "utf8")).toBe("Greet by name.\n");
    const improver = await readFile(
      join(result.tuneDir, "iterations/iteration-2/improve/attempt-1.md"),
      "utf8",
    );
    expect(improver).toContain("v1 (score 60): - WORSE-STEPS");
    expect(result.best.version).toBe("v0");
    expect(result.diffs.every((d) => d.diff === "")).toBe(true);
    expect(await readFile(result.reportFile, "utf8")).toContain("there is nothing to apply");
  });

  it("stops when the score converges", async () => {
    await writeTree(dir, { "greeter/SKILL.md": v0Skill(GOOD), "greeter/evals/evals.json": greeterEvals });
    const result = await tuneWithSim(
      {
        rules: [
          {
            match: "tune iteration \\d",
            skill: "none",
            without_skill: [{ write: { path: "greeter/references/note.md", content: "{{prompt}}" } }],
          },
          writesCard,
        ],
        judge: { rubric: { default: 60 } },
      },
      { skillPaths: [join(dir, "greeter")], maxIterations: 5, threshold: 99, workspace: join(dir, "ws") },
    );
    const s = await state(result.tuneDir);
    expect(s).toMatchObject({
      status: "completed",
      termination_reason: "convergence_detected",
      converged: true,
      current_iteration: 3,
      score_trend: [80, 80, 80],
    });
    expect(s.iterations.map((it) => it.grading_result)).toEqual(["baseline", "tie", "tie"]);
    // The improver wrote no notes: the tune wrote the edit as a diff instead.
    expect(
      await readFile(join(result.tuneDir, "iterations/iteration-1/iteration-1-changes.md"), "utf8"),
    ).toContain("+++ b/greeter/references/note.md");
  });

  it("resumes a tune interrupted in the middle of an iteration and finishes it", async () => {
    await writeTree(dir, { "greeter/SKILL.md": v0Skill(GOOD), "greeter/evals/evals.json": greeterEvals });
    const script = {
      rules: [improverWrites(1, v1Skill, "- BETTER-STEPS\n"), { ...writesCard, latency_ms: 400 }],
      judge: { rubric: { default: 60, when: [{ match: "BETTER-STEPS", score: 80 }] } },
    };
    const controller = new AbortController();
    const options = {
      skillPaths: [join(dir, "greeter")],
      maxIterations: 2,
      threshold: 99,
      workspace: join(dir, "ws"),
    };
    const first = await tuneWithSim(script, {
      ...options,
      signal: controller.signal,
      runReporter: {
        onRunStart: (spec) => {
          if (spec.runDir.includes(join("iteration-2", "execution")))
            setTimeout(() => controller.abort(), 300);
        },
      },
    });
    expect(first.cancelled).toBe(true);
    const interrupted = await state(first.tuneDir);
    expect(interrupted).toMatchObject({ status: "running", current_iteration: 2, termination_reason: null });
    expect(interrupted.iterations.map((it) => it.status)).toEqual(["completed", "executing"]);
    expect(await readFile(first.reportFile, "utf8")).toContain(`skillgym tune --resume ${first.tuneDir}`);

    const resumed = await tuneWithSim(script, { skillPaths: [], resumeDir: first.tuneDir });
    expect(resumed.cancelled).toBe(false);
    const done = await state(first.tuneDir);
    expect(done).toMatchObject({
      status: "completed",
      termination_reason: "max_iterations_reached",
      score_trend: [80, 90],
      current_best: "v1",
    });
    expect(done.iterations).toHaveLength(2);
    const run = join(
      first.tuneDir,
      "iterations/iteration-2/execution/greeter/iteration-1/eval-1/with_skill/run-1",
    );
    expect((await readJson(join(run, "timing.json"))).outcome).toBe("success");
    expect(await readFile(join(run, "outputs", "card.txt"), "utf8")).toBe("Hello, Ada!\n");
  });

  it("rolls back an edit that changed nothing, counts the error, and stops after three in a row", async () => {
    await writeTree(dir, { "greeter/SKILL.md": v0Skill(GOOD), "greeter/evals/evals.json": greeterEvals });
    const result = await tuneWithSim(
      {
        rules: [
          { match: "tune iteration \\d", skill: "none", without_skill: [{ text: "Nothing to change." }] },
          writesCard,
        ],
        // Scores rise with the number of versions measured before, so neither the threshold nor convergence stops it.
        judge: {
          rubric: {
            default: 80,
            when: [
              { match: "This is the first version measured", score: 40 },
              { match: "oldest first\\): [0-9.]+\n", score: 60 },
            ],
          },
        },
      },
      { skillPaths: [join(dir, "greeter")], maxIterations: 5, threshold: 99, workspace: join(dir, "ws") },
    );
    const s = await state(result.tuneDir);
    expect(s).toMatchObject({
      termination_reason: "error_limit_reached",
      error_count: 3,
      consecutive_errors: 3,
      score_trend: [70, 80, 90],
    });
    for (const it of s.iterations) {
      expect(it.improvement).toMatchObject({
        rolled_back: true,
        attempts: 2,
        error: "the improver changed nothing",
      });
      expect(it.error).toBe("improve: the improver changed nothing");
    }
    // Each next version is the best one again, unchanged.
    expect(await hashSkill(join(result.tuneDir, "iterations/iteration-3/skill-snapshot/greeter"))).toBe(
      await hashSkill(join(dir, "greeter")),
    );
  });

  it("tunes for a --scenario when the skill has no evals", async () => {
    await writeTree(dir, { "greeter/SKILL.md": v0Skill(GOOD) });
    const script = join(dir, "sim-script.json");
    await writeFile(script, JSON.stringify({ rules: [writesCard], judge: { rubric: { default: 70 } } }));
    const io = captureIo();
    const args = ["tune", join(dir, "greeter"), "--scenario", "Please make a greeting card for Ada", "-y"];
    const code = await mainOnDouble(
      [
        ...args,
        "--max-iterations",
        "1",
        "--runs",
        "1",
        "--simulate",
        "--sim-script",
        script,
        "--workspace",
        join(dir, "ws"),
      ],
      io,
    );
    expect(code, io.stderr()).toBe(0);
    expect(io.stdout()).toContain("scores: v0 85 (baseline)");
    const tuneDir = /^tune (\S+): completed/m.exec(io.stdout())?.[1] as string;
    const s = await state(tuneDir);
    expect(s.test_scenario).toBe("Please make a greeting card for Ada");
    const evals = await readJson(join(tuneDir, "scenario", "greeter", "evals.json"));
    expect(evals.evals).toEqual([
      {
        id: "scenario",
        prompt: "Please make a greeting card for Ada",
        expectations: [
          "The task was done completely and correctly, as asked: Please make a greeting card for Ada",
        ],
      },
    ]);
    const grading = await readJson(
      join(
        tuneDir,
        "iterations/iteration-1/execution/greeter/iteration-1/eval-scenario/with_skill/run-1/grading.json",
      ),
    );
    expect(grading.summary).toMatchObject({ pass_rate: 1, total: 1 });
  });

  it("tunes a two-skill chain: the downstream reads the upstream's output, the weakest skill is improved", async () => {
    const drafterV1 = skillMd(
      "drafter",
      "Drafts talks from an outline. Use to draft a talk.",
      "DRAFTER-V2: cat it.",
    );
    await writeTree(dir, {
      "outliner/SKILL.md": skillMd(
        "outliner",
        "Outlines talks. Use to outline a talk.",
        "OUTLINER-BODY: write outline.md.",
      ),
      "outliner/evals/evals.json": JSON.stringify({
        evals: [
          {
            id: 1,
            prompt: "Outline a talk about owls",
            expectations: [],
            checks: [{ type: "file_contains", path: "outline.md", pattern: "OWL" }],
          },
        ],
      }),
      "drafter/SKILL.md": skillMd(
        "drafter",
        "Drafts talks from an outline. Use to draft a talk.",
        "Copy it.",
      ),
      "drafter/evals/evals.json": JSON.stringify({
        evals: [
          {
            id: 1,
            prompt: "Draft the talk from outline.md",
            expectations: [],
            checks: [{ type: "file_contains", path: "draft.md", pattern: "OWL-OUTLINE" }],
          },
        ],
      }),
    });
    const result = await tuneWithSim(
      {
        rules: [
          {
            match: "tune iteration 1\\b",
            skill: "none",
            without_skill: [
              { read: "drafter/SKILL.md" },
              { write: { path: "drafter/SKILL.md", content: drafterV1 } },
              { write: { path: "iteration-1-changes.md", content: "- DRAFTER-V2\n" } },
            ],
          },
          {
            match: "Outline a talk",
            steps: [{ write: { path: "outline.md", content: "OWL-OUTLINE\n1. Intro\n" } }],
          },
          { match: "Draft the talk", steps: [{ bash: "cat outline.md > draft.md" }] },
        ],
        judge: {
          rubric: {
            default: 60,
            when: [
              { match: "OUTLINER-BODY", score: 90 },
              { match: "DRAFTER-V2", score: 90 },
            ],
          },
        },
      },
      {
        skillPaths: [join(dir, "outliner"), join(dir, "drafter")],
        mode: "chain",
        maxIterations: 2,
        threshold: 99,
        workspace: join(dir, "ws"),
      },
    );
    const s = await state(result.tuneDir);
    expect(s).toMatchObject({
      execution_mode: "chain",
      chain_order: ["outliner", "drafter"],
      current_best: "v1",
    });
    const [first, second] = s.iterations;
    expect(first?.execution?.chain?.map((c) => [c.skill_name, c.status])).toEqual([
      ["outliner", "completed"],
      ["drafter", "completed"],
    ]);
    // The drafter's run found the outliner's outline.md in its workspace and copied it into draft.md.
    const draft = join(
      result.tuneDir,
      "iterations/iteration-1/execution/drafter/iteration-1/eval-1/with_skill/run-1/outputs/draft.md",
    );
    expect(await readFile(draft, "utf8")).toBe("OWL-OUTLINE\n1. Intro\n");
    expect(first?.evaluation?.skill_scores).toEqual({ outliner: 95, drafter: 80 });
    expect(first?.evaluation?.score).toBe(87.5);
    expect(first?.improvement?.target_skills).toEqual(["drafter"]);
    expect(second?.evaluation?.skill_scores).toEqual({ outliner: 95, drafter: 95 });
    expect(second?.grading_result).toBe("won");
    const snapshot = join(result.tuneDir, "iterations/iteration-2/skill-snapshot");
    expect(await readFile(join(snapshot, "drafter/SKILL.md"), "utf8")).toBe(drafterV1);
    expect(await hashSkill(join(snapshot, "outliner"))).toBe(await hashSkill(join(dir, "outliner")));
    expect(result.diffs.map((d) => [d.name, d.diff === ""])).toEqual([
      ["outliner", true],
      ["drafter", false],
    ]);
  });
});
