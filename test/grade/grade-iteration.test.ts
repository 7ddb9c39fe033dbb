import { chmod, readdir, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { type GradeIterationOptions, gradeIteration, readEvents } from "../../src/grade/grade-iteration.js";
import type { ExpectationGrader } from "../../src/grade/grade-run.js";
import type { Suite } from "../../src/suite/model.js";
import {
  cardEvals,
  cardRecord,
  cardRunDir,
  cardSkillMd,
  loadedCard,
  tempRoot,
  writeCardSkill,
  writeFiles,
  writeIterationRecord,
  writeRun,
} from "./card-iteration.js";

let root: string;
let cleanup: () => Promise<void>;
let skillDir: string;
beforeAll(async () => {
  ({ root, cleanup } = await tempRoot());
  // Eval 3 is in the suite but not in the iteration's plan: it is not graded.
  skillDir = await writeCardSkill(root, [
    ...cardEvals,
    { id: 3, prompt: "Unplanned", checks: [{ type: "file_exists", path: "x" }] },
  ]);
});
afterAll(() => cleanup());

// A Claude Code transcript line: the run loaded another skill than the one under test.
const claudeLoadsOther = JSON.stringify({
  type: "assistant",
  message: { content: [{ type: "tool_use", id: "toolu_1", name: "Skill", input: { skill: "other" } }] },
});

let iterations = 0;
/** An iteration of the card skill: eval 1 run with and without it, eval 2 graded already (with) and failed (without). */
async function cardIteration(record: Record<string, unknown> = {}): Promise<string> {
  const dir = join(root, "card-workspace", `iteration-${++iterations}`);
  await writeIterationRecord(dir, cardRecord(skillDir, { record }));
  await writeRun(cardRunDir(dir, 1, "with_skill"), {
    outputs: { "card.txt": "Hello Ada\n" },
    events: [loadedCard],
  });
  await writeRun(cardRunDir(dir, 1, "without_skill"), {
    outputs: { "card.txt": "Bye\n", "evals/files/names.txt": "Bob\n" },
    created: ["card.txt"],
    modified: ["evals/files/names.txt"],
    transcript: `${claudeLoadsOther}\n`,
  });
  await writeRun(cardRunDir(dir, 2, "with_skill"), {
    outputs: { "card.txt": "Hi!\n" },
    grading: { expectations: [], summary: { passed: 0, failed: 0, total: 0, pass_rate: 0 } },
  });
  await writeRun(cardRunDir(dir, 2, "without_skill"), { outcome: "error" });
  return dir;
}

type Report = Parameters<NonNullable<GradeIterationOptions["onRunGraded"]>>[0];
function recorder() {
  const reports: Report[] = [];
  return {
    reports,
    onRunGraded: (info: Report) => reports.push(info),
    sorted: () => [...reports].sort((x, y) => x.runDir.localeCompare(y.runDir)),
  };
}

async function gradingOf(runDir: string) {
  return JSON.parse(await readFile(join(runDir, "grading.json"), "utf8"));
}

const friendly: ExpectationGrader = async (input) => ({
  expectations: input.expectations.map((text) => ({ text, passed: true, evidence: "it says hi" })),
  model: "judge-model",
  costUsd: 0.25,
});

const withSkillChecks = [
  {
    text: "card.txt matches /^Hello/m",
    passed: true,
    evidence: 'Found on line 1 of card.txt: "Hello Ada"',
    source: "check",
    check_type: "file_contains",
  },
  {
    text: "evals/files/names.txt is left unchanged",
    passed: true,
    evidence: "evals/files/names.txt exists and it was not created, modified or deleted by the run",
    source: "check",
    check_type: "file_unchanged",
  },
  {
    text: 'the skill "card" is invoked',
    passed: true,
    evidence: '"card" was invoked. Skills loaded, in order: "card"',
    source: "check",
    check_type: "skill_invoked",
  },
];

describe("gradeIteration", () => {
  it("grades each finished run left ungraded in its rebuilt workspace, and skips the rest", async () => {
    const dir = await cardIteration();
    const seen = recorder();
    const suites: Suite[] = [];
    const result = await gradeIteration({
      iterationDir: dir,
      onRunGraded: seen.onRunGraded,
      createGrader: async (suite) => {
        suites.push(suite);
        return friendly;
      },
    });
    expect(result).toEqual({ graded: 2, skipped: 2, errors: [], judgeCostUsd: 0 });
    // Eval 2 has expectations, so the judge is made, once, with the suite (it passes its env on).
    expect(suites.map((s) => s.dir)).toEqual([join(skillDir, "evals")]);
    expect(seen.sorted()).toEqual([
      { runDir: cardRunDir(dir, 1, "with_skill"), passRate: 1 },
      { runDir: cardRunDir(dir, 1, "without_skill"), passRate: 0 },
      { runDir: cardRunDir(dir, 2, "with_skill"), skipped: true },
      { runDir: cardRunDir(dir, 2, "without_skill"), skipped: true },
    ]);
    const withSkill = await gradingOf(cardRunDir(dir, 1, "with_skill"));
    expect(withSkill.expectations).toEqual(withSkillChecks);
    expect(withSkill.summary).toEqual({ passed: 3, failed: 0, total: 3, pass_rate: 1 });
    expect(withSkill.timing).toMatchObject({ outcome: "success", executor_duration_seconds: 4 });
    // Without the skill: the card is wrong, the fixture was changed, and the transcript shows another skill loaded.
    expect((await gradingOf(cardRunDir(dir, 1, "without_skill"))).expectations).toEqual([
      {
        text: "card.txt matches /^Hello/m",
        passed: false,
        evidence: "No match for /^Hello/m in card.txt (1 line); it begins:\nBye\n",
        source: "check",
        check_type: "file_contains",
      },
      {
        text: "evals/files/names.txt is left unchanged",
        passed: false,
        evidence: "The run modified evals/files/names.txt",
        source: "check",
        check_type: "file_unchanged",
      },
      {
        text: 'the skill "card" is invoked',
        passed: false,
        evidence: '"card" was not invoked. Skills loaded, in order: "other"',
        source: "check",
        check_type: "skill_invoked",
      },
    ]);
    // The run graded earlier keeps its grading; the failed run gets none.
    expect((await gradingOf(cardRunDir(dir, 2, "with_skill"))).summary.total).toBe(0);
    await expect(stat(join(cardRunDir(dir, 2, "without_skill"), "grading.json"))).rejects.toThrow();
  });

  it("grades again the runs graded already when forced, by the judge where they have expectations", async () => {
    const dir = await cardIteration();
    const seen = recorder();
    const result = await gradeIteration({
      iterationDir: dir,
      force: true,
      concurrency: 1,
      onRunGraded: seen.onRunGraded,
      createGrader: async () => friendly,
    });
    expect(result).toEqual({ graded: 3, skipped: 1, errors: [], judgeCostUsd: 0.25 });
    // One at a time, in the plan's order.
    expect(seen.reports.map((r) => r.runDir)).toEqual([
      cardRunDir(dir, 1, "with_skill"),
      cardRunDir(dir, 1, "without_skill"),
      cardRunDir(dir, 2, "with_skill"),
      cardRunDir(dir, 2, "without_skill"),
    ]);
    const regraded = await gradingOf(cardRunDir(dir, 2, "with_skill"));
    expect(regraded.expectations).toEqual([
      { text: "the card is friendly", passed: true, evidence: "it says hi", source: "judge" },
      {
        text: "card.txt exists",
        passed: true,
        evidence: "card.txt exists (a file of 4 bytes, created by the run)",
        source: "check",
        check_type: "file_exists",
      },
    ]);
    expect(regraded.judge_model).toBe("judge-model");
  });

  it("reports a run it could not grade and goes on with the others", async () => {
    const dir = await cardIteration();
    const seen = recorder();
    // No judge for eval 2's expectations.
    const result = await gradeIteration({ iterationDir: dir, force: true, onRunGraded: seen.onRunGraded });
    const failed = cardRunDir(dir, 2, "with_skill");
    const error = `${failed}: expectations need a judge to grade them`;
    expect(result).toEqual({ graded: 2, skipped: 1, errors: [{ runDir: failed, error }], judgeCostUsd: 0 });
    expect(seen.sorted()[2]).toEqual({ runDir: failed, error });
  });

  it("leaves a run whose grading was cancelled ungraded, without calling it a failure", async () => {
    const dir = await cardIteration();
    const controller = new AbortController();
    const seen = recorder();
    const result = await gradeIteration({
      iterationDir: dir,
      force: true,
      concurrency: 1,
      signal: controller.signal,
      onRunGraded: seen.onRunGraded,
      createGrader: async () => async () => {
        controller.abort();
        return { expectations: [], model: "m", costUsd: 1 };
      },
    });
    // Eval 1's two runs were graded; eval 2's was cut short, and nothing started after it.
    expect(result).toEqual({ graded: 2, skipped: 0, errors: [], judgeCostUsd: 0 });
    expect(seen.reports.map((r) => r.runDir)).toEqual([
      cardRunDir(dir, 1, "with_skill"),
      cardRunDir(dir, 1, "without_skill"),
    ]);
    await expect(stat(join(cardRunDir(dir, 2, "with_skill"), "grading.json"))).resolves.toBeDefined();
  });

  it("grades up to four runs at once by default", async () => {
    const dir = join(root, "parallel", "iteration-1");
    await writeIterationRecord(
      dir,
      cardRecord(skillDir, { evals: [2], configurations: ["with_skill"], runs: 2 }),
    );
    for (const k of [1, 2])
      await writeRun(cardRunDir(dir, 2, "with_skill", k), { outputs: { "card.txt": "Hi\n" } });
    // Each judge call waits for the other: graded one at a time, the first would wait out its 30 s and fail.
    let entered = 0;
    let bothIn: () => void = () => {};
    const together = new Promise<void>((resolve) => {
      bothIn = resolve;
    });
    const result = await gradeIteration({
      iterationDir: dir,
      createGrader: async () => async (input) => {
        if (++entered === 2) bothIn();
        const met = await Promise.race([
          together.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000)),
        ]);
        return {
          expectations: input.expectations.map((text) => ({ text, passed: met, evidence: "e" })),
          model: "m",
          costUsd: 0,
        };
      },
    });
    expect(result).toEqual({ graded: 2, skipped: 0, errors: [], judgeCostUsd: 0 });
    for (const k of [1, 2])
      expect((await gradingOf(cardRunDir(dir, 2, "with_skill", k))).summary.pass_rate).toBe(1);
  });

  it("leaves no rebuilt workspace behind in the temp folder", async () => {
    const dir = await cardIteration();
    const ours = async () =>
      (await readdir(tmpdir())).filter((name) => name.startsWith(`skillgym-grade.${process.pid}.`));
    const before = await ours();
    let during: string[] = [];
    await gradeIteration({
      iterationDir: dir,
      createGrader: async () => async (input) => {
        during = await ours();
        return friendly(input);
      },
      force: true,
    });
    expect(during.length).toBe(before.length + 1);
    expect(await ours()).toEqual(before);
  });

  it("refuses a folder without iteration.json, naming it", async () => {
    const dir = join(root, "not-an-iteration");
    const error = (await gradeIteration({ iterationDir: dir }).catch((e: unknown) => e)) as SkillgymError;
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toBe(`${dir} is not an iteration folder (no iteration.json)`);
    expect(error.hint).toBe(
      "pass a folder such as my-skill-workspace/iteration-1 written by `skillgym eval`",
    );
  });
});

describe("gradeIteration rebuilds each run as it ran", () => {
  it("with the project root, the --evals file and the baseline skill the iteration recorded", async () => {
    const project = join(root, "project");
    await writeFiles(project, {
      "README.md": "the project\n",
      "skills/card/SKILL.md": cardSkillMd,
      "suites/card-evals.json": JSON.stringify({
        evals: [
          {
            id: 1,
            prompt: "p",
            checks: [
              { type: "file_exists", path: "README.md" },
              {
                type: "file_contains",
                path: ".claude/skills/card/SKILL.md",
                pattern: "^Old card",
                flags: "m",
              },
              // The project copy leaves out the skill under test and the suite, as the run did.
              { type: "file_exists", path: "skills/card/SKILL.md" },
              { type: "file_exists", path: "suites/card-evals.json" },
            ],
          },
        ],
      }),
      "card-v1/SKILL.md": "---\nname: card\ndescription: Old card.\n---\n\nOld card.\n",
    });
    const dir = join(root, "rebuilt", "iteration-1");
    const record = cardRecord(join(project, "skills", "card"), {
      evals: [1],
      configurations: ["old_skill"],
      record: { project_root: project, evals_path: join(project, "suites", "card-evals.json") },
    });
    await writeIterationRecord(dir, {
      ...record,
      plan: { ...record.plan, baseline_skill_path: join(project, "card-v1") },
    });
    await writeRun(cardRunDir(dir, 1, "old_skill"), {});
    const result = await gradeIteration({ iterationDir: dir });
    expect(result).toEqual({ graded: 1, skipped: 0, errors: [], judgeCostUsd: 0 });
    const { expectations } = await gradingOf(cardRunDir(dir, 1, "old_skill"));
    expect(expectations.map((x: { passed: boolean; evidence: string }) => [x.passed, x.evidence])).toEqual([
      [true, "README.md exists (a file of 12 bytes)"],
      [true, 'Found on line 6 of .claude/skills/card/SKILL.md: "Old card."'],
      [false, "skills/card/SKILL.md does not exist"],
      [false, "suites/card-evals.json does not exist"],
    ]);
  });

  it("reading each run's events as the agent that ran wrote them", async () => {
    const dir = join(root, "codex-run", "iteration-1");
    await writeIterationRecord(
      dir,
      cardRecord(skillDir, {
        evals: [1],
        configurations: ["with_skill"],
        record: { agent: { name: "codex" } },
      }),
    );
    const codexReadsCard = JSON.stringify({
      type: "item.started",
      item: {
        id: "item_1",
        type: "command_execution",
        command: "/bin/bash -lc 'cat /w/.agents/skills/card/SKILL.md'",
        aggregated_output: "",
        exit_code: null,
        status: "in_progress",
      },
    });
    await writeRun(cardRunDir(dir, 1, "with_skill"), {
      outputs: { "card.txt": "Hello\n" },
      transcript: `${codexReadsCard}\n`,
    });
    expect(await gradeIteration({ iterationDir: dir })).toMatchObject({ graded: 1, errors: [] });
    expect((await gradingOf(cardRunDir(dir, 1, "with_skill"))).expectations[2]).toMatchObject({
      passed: true,
      evidence: '"card" was invoked. Skills loaded, in order: "card"',
    });
  });
});

describe("readEvents", () => {
  it("reads events.jsonl, else the raw transcript by its agent, else nothing", async () => {
    const dir = join(root, "events");
    await writeRun(join(dir, "logged"), { events: [loadedCard], transcript: `${claudeLoadsOther}\n` });
    await writeRun(join(dir, "raw"), { transcript: `${claudeLoadsOther}\n` });
    await writeRun(join(dir, "none"), {});
    expect(await readEvents(join(dir, "logged"))).toEqual([loadedCard]);
    expect(await readEvents(join(dir, "raw"))).toEqual([
      expect.objectContaining({ kind: "tool_use", name: "Skill", input: { skill: "other" } }),
      expect.objectContaining({ kind: "skill_load", skill: "other" }),
    ]);
    // The same line means nothing to Codex's reader.
    expect(await readEvents(join(dir, "raw"), "codex")).toEqual([{ kind: "unknown", type: "assistant" }]);
    expect(await readEvents(join(dir, "none"))).toEqual([]);
  });
});

describe("gradeIteration of a sandboxed iteration", () => {
  async function withPath<T>(path: string, work: () => Promise<T>): Promise<T> {
    const saved = process.env.PATH;
    process.env.PATH = path;
    try {
      return await work();
    } finally {
      process.env.PATH = saved;
    }
  }

  it("runs its command checks through the bubblewrap on PATH, and stops before grading when there is none", async () => {
    const suiteRoot = join(root, "sandboxed-suite");
    const sandboxedSkill = await writeCardSkill(suiteRoot, [
      { id: 1, prompt: "p", checks: [{ type: "command", run: "true" }] },
    ]);
    const dir = join(root, "sandboxed", "iteration-1");
    await writeIterationRecord(
      dir,
      cardRecord(sandboxedSkill, { evals: [1], configurations: ["with_skill"], record: { sandbox: true } }),
    );
    await writeRun(cardRunDir(dir, 1, "with_skill"), {});
    const bin = join(root, "fake-bin");
    await writeFiles(bin, { bwrap: "#!/bin/sh\necho bubblewrap ran\nexit 7\n" });
    await chmod(join(bin, "bwrap"), 0o755);
    const noBwrap = (await withPath(join(root, "empty-bin"), () =>
      gradeIteration({ iterationDir: dir }).catch((e: unknown) => e),
    )) as SkillgymError;
    expect(noBwrap).toBeInstanceOf(SkillgymError);
    expect(noBwrap.code).toBe("AGENT_UNAVAILABLE");
    await expect(stat(join(cardRunDir(dir, 1, "with_skill"), "grading.json"))).rejects.toThrow();
    expect(await withPath(bin, () => gradeIteration({ iterationDir: dir }))).toMatchObject({ graded: 1 });
    expect((await gradingOf(cardRunDir(dir, 1, "with_skill"))).expectations[0]).toMatchObject({
      passed: false,
      evidence: "Exit code 7 (expected 0)\nstdout:\nbubblewrap ran",
    });
  });

  it("needs no bubblewrap when no command check runs sandboxed, nor a judge when nothing has expectations", async () => {
    const suites = join(root, "unsandboxed-suites");
    const outside = await writeCardSkill(join(suites, "outside"), [
      { id: 1, prompt: "p", checks: [{ type: "command", run: "true", sandbox: false }] },
    ]);
    const plain = await writeCardSkill(join(suites, "plain"), [
      { id: 1, prompt: "p", checks: [{ type: "command", run: "true" }] },
    ]);
    for (const [name, skill, sandbox] of [
      ["outside", outside, true],
      ["plain", plain, undefined],
    ] as const) {
      const dir = join(suites, `${name}-workspace`, "iteration-1");
      await writeIterationRecord(
        dir,
        cardRecord(skill, { evals: [1], configurations: ["with_skill"], record: { sandbox } }),
      );
      await writeRun(cardRunDir(dir, 1, "with_skill"), {});
      let judges = 0;
      const result = await withPath(join(root, "empty-bin"), () =>
        gradeIteration({
          iterationDir: dir,
          createGrader: async () => {
            judges++;
            return friendly;
          },
        }),
      );
      expect(result).toEqual({ graded: 1, skipped: 0, errors: [], judgeCostUsd: 0 });
      expect(judges).toBe(0);
      const { expectations } = await gradingOf(cardRunDir(dir, 1, "with_skill"));
      // No bubblewrap was looked for, so no sandbox is handed to the checks (nor a note that one ran outside it).
      expect(expectations[0].evidence).toBe("Exit code 0");
    }
  });
});
