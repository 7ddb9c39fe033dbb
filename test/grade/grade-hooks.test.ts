import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProcessResult } from "../../src/agents/process/run-process.js";
import { gradeEarlierRun, gradingHooks } from "../../src/grade/grade-earlier.js";
import { type GradeOnFinishOptions, gradeOnFinish } from "../../src/grade/grade-on-finish.js";
import type { ExpectationGrader } from "../../src/grade/grade-run.js";
import { createRedactor } from "../../src/redact.js";
import type { EarlierRun, FinishedRun } from "../../src/run/execute-run.js";
import { loadInputs } from "../../src/run/load-inputs.js";
import type { RunSpec } from "../../src/run/plan.js";
import type { ResolvedEval } from "../../src/suite/model.js";
import { cardEvals, loadedCard, tempRoot, writeCardSkill, writeRun } from "./card-iteration.js";

let root: string;
let cleanup: () => Promise<void>;
let skill: { dir: string; name: string };
let evals: ResolvedEval[];
beforeAll(async () => {
  ({ root, cleanup } = await tempRoot());
  const skillDir = await writeCardSkill(root, [
    ...cardEvals,
    { id: 3, prompt: "Nothing graded" },
    { id: 4, prompt: "Env", checks: [{ type: "command", run: "printenv SKILLGYM_HOOKS_TEST" }] },
    { id: 5, prompt: "Judged only", expectations: ["the card is kind"] },
  ]);
  const loaded = await loadInputs({ skillPath: skillDir, projectRoot: root, need: "evals" });
  skill = { dir: loaded.skill.dir, name: loaded.skill.name };
  evals = loaded.suite.evals;
});
afterAll(() => cleanup());

let runs = 0;
function specOf(evalIndex: number): RunSpec {
  const e = evals[evalIndex]!;
  return {
    eval: e,
    evalName: `eval-${e.id}`,
    configuration: "with_skill",
    runNumber: 1,
    runDir: join(root, "iteration-1", `eval-${e.id}`, "with_skill", `run-${++runs}`),
    timeoutMs: 60_000,
  };
}

function recorder() {
  const calls: unknown[][] = [];
  return {
    calls,
    reporter: {
      onGradeStart: (spec: RunSpec) => calls.push(["start", spec.runDir]),
      onGradeEnd: (spec: RunSpec, info: { judgeCostUsd?: number; failed: boolean }) =>
        calls.push(["end", spec.runDir, info]),
    },
    onError: (runDir: string, error: unknown) => calls.push(["error", runDir, (error as Error).message]),
    onGraded: (runDir: string) => calls.push(["graded", runDir]),
  };
}

function counted(grader: ExpectationGrader) {
  const made = { count: 0 };
  return {
    made,
    createGrader: async () => {
      made.count++;
      return grader;
    },
  };
}

const friendly: ExpectationGrader = async (input) => ({
  expectations: input.expectations.map((text) => ({ text, passed: true, evidence: "friendly" })),
  model: "judge",
  costUsd: 0.25,
});

async function gradingOf(runDir: string) {
  return JSON.parse(await readFile(join(runDir, "grading.json"), "utf8"));
}

describe("gradeOnFinish", () => {
  let workspaceDir: string;
  beforeAll(async () => {
    workspaceDir = join(root, "live-workspace");
    await mkdir(join(workspaceDir, "evals", "files"), { recursive: true });
    await writeFile(join(workspaceDir, "card.txt"), "Hello Ada\n");
    await writeFile(join(workspaceDir, "evals", "files", "names.txt"), "Ada\nGrace\n");
  });

  async function finished(evalIndex: number, extra: Partial<FinishedRun> = {}): Promise<FinishedRun> {
    const spec = specOf(evalIndex);
    await mkdir(spec.runDir, { recursive: true });
    return {
      spec,
      skillName: "card",
      workspaceDir,
      result: { outcome: "success", events: [loadedCard as never], process: {} as ProcessResult },
      changes: { created: ["card.txt"], modified: [], deleted: [] },
      redactor: createRedactor([]),
      ...extra,
    };
  }

  it("grades a run's checks in its live workspace, telling the reporter, with no judge made", async () => {
    const seen = recorder();
    const { made, createGrader } = counted(friendly);
    const run = await finished(0);
    const graded = await gradeOnFinish({ createGrader, reporter: seen.reporter, onError: seen.onError })(run);
    expect(graded).toEqual({ judgeCostUsd: 0 });
    expect(made.count).toBe(0);
    expect(seen.calls).toEqual([
      ["start", run.spec.runDir],
      ["end", run.spec.runDir, { judgeCostUsd: 0, failed: false }],
    ]);
    const grading = await gradingOf(run.spec.runDir);
    expect(grading.expectations.map((x: { passed: boolean }) => x.passed)).toEqual([true, true, true]);
    expect(grading.expectations[2].evidence).toBe('"card" was invoked. Skills loaded, in order: "card"');
  });

  it("reports the grading phase of a run that has expectations and no checks", async () => {
    const seen = recorder();
    const run = await finished(4);
    expect(await gradeOnFinish({ ...counted(friendly), reporter: seen.reporter })(run)).toEqual({
      judgeCostUsd: 0.25,
    });
    expect(seen.calls).toEqual([
      ["start", run.spec.runDir],
      ["end", run.spec.runDir, { judgeCostUsd: 0.25, failed: false }],
    ]);
  });

  it("makes the judge once, the first time a run has expectations, and reports its cost", async () => {
    const seen = recorder();
    const { made, createGrader } = counted(friendly);
    const hook = gradeOnFinish({ createGrader, reporter: seen.reporter });
    const first = await finished(1);
    const second = await finished(1);
    expect(await hook(first)).toEqual({ judgeCostUsd: 0.25 });
    expect(await hook(second)).toEqual({ judgeCostUsd: 0.25 });
    expect(made.count).toBe(1);
    expect(seen.calls).toEqual([
      ["start", first.spec.runDir],
      ["end", first.spec.runDir, { judgeCostUsd: 0.25, failed: false }],
      ["start", second.spec.runDir],
      ["end", second.spec.runDir, { judgeCostUsd: 0.25, failed: false }],
    ]);
    expect((await gradingOf(first.spec.runDir)).expectations[0]).toEqual({
      text: "the card is friendly",
      passed: true,
      evidence: "friendly",
      source: "judge",
    });
  });

  it("writes an empty grading for a run with nothing to grade, without a grading phase", async () => {
    const seen = recorder();
    const run = await finished(2);
    expect(await gradeOnFinish({ ...counted(friendly), reporter: seen.reporter })(run)).toEqual({
      judgeCostUsd: 0,
    });
    expect(seen.calls).toEqual([]);
    expect((await gradingOf(run.spec.runDir)).summary).toEqual({
      passed: 0,
      failed: 0,
      total: 0,
      pass_rate: 0,
    });
  });

  it("leaves a run whose grading failed ungraded, reporting the failure", async () => {
    const seen = recorder();
    const run = await finished(1);
    const options: GradeOnFinishOptions = {
      createGrader: async () => {
        throw new Error("no judge today");
      },
      reporter: seen.reporter,
      onError: seen.onError,
    };
    expect(await gradeOnFinish(options)(run)).toEqual({});
    expect(seen.calls).toEqual([
      ["start", run.spec.runDir],
      ["end", run.spec.runDir, { failed: true }],
      ["error", run.spec.runDir, "no judge today"],
    ]);
    await expect(stat(join(run.spec.runDir, "grading.json"))).rejects.toThrow();
  });

  it("says nothing of a grading phase when a run with nothing to grade fails to be written", async () => {
    const seen = recorder();
    const run = await finished(2);
    // Its run folder is a file: grading.json cannot be written.
    await writeFile(join(root, "not-a-folder"), "");
    const broken = { ...run, spec: { ...run.spec, runDir: join(root, "not-a-folder") } };
    expect(
      await gradeOnFinish({ ...counted(friendly), reporter: seen.reporter, onError: seen.onError })(broken),
    ).toEqual({});
    expect(seen.calls).toEqual([["error", broken.spec.runDir, expect.stringContaining("not-a-folder")]]);
  });

  it("does not report a grading that was cancelled as an error", async () => {
    const seen = recorder();
    const controller = new AbortController();
    const run = await finished(1);
    const hook = gradeOnFinish({
      createGrader: async () => async () => {
        controller.abort();
        return { expectations: [], model: "m", costUsd: 0 };
      },
      signal: controller.signal,
      reporter: seen.reporter,
      onError: seen.onError,
    });
    expect(await hook(run)).toEqual({});
    expect(seen.calls).toEqual([
      ["start", run.spec.runDir],
      ["end", run.spec.runDir, { failed: true }],
    ]);
  });

  it("passes the suite's variables and the run's sandbox on to command checks", async () => {
    await expectEnvAndSandboxPassedOn(gradeOnFinish(counted(friendly)), finished);
  });
});

describe("gradeEarlierRun", () => {
  // A run an earlier invocation finished: its workspace is gone, its run folder holds its outputs and events.
  async function earlier(evalIndex: number, extra: Partial<EarlierRun> = {}): Promise<EarlierRun> {
    const spec = specOf(evalIndex);
    await writeRun(spec.runDir, { outputs: { "card.txt": "Hello Grace\n" }, events: [loadedCard] });
    return {
      spec,
      skillName: "card",
      workspace: {
        dir: join(root, "rebuilt", `ws-${runs}`),
        configuration: "with_skill",
        eval: spec.eval,
        skill,
        excludePaths: [],
        skillsFolder: ".claude/skills",
      },
      ...extra,
    };
  }

  it("grades a run left ungraded in its rebuilt workspace", async () => {
    const seen = recorder();
    const run = await earlier(0);
    const { made, createGrader } = counted(friendly);
    const hook = gradeEarlierRun({ createGrader, reporter: seen.reporter, onGraded: seen.onGraded });
    expect(await hook(run)).toEqual({ judgeCostUsd: 0 });
    // Checks alone need no judge.
    expect(made.count).toBe(0);
    expect(seen.calls).toEqual([
      ["start", run.spec.runDir],
      ["graded", run.spec.runDir],
      ["end", run.spec.runDir, { judgeCostUsd: 0, failed: false }],
    ]);
    const grading = await gradingOf(run.spec.runDir);
    expect(grading.expectations.map((x: { evidence: string }) => x.evidence)).toEqual([
      'Found on line 1 of card.txt: "Hello Grace"',
      "evals/files/names.txt exists and it was not created, modified or deleted by the run",
      '"card" was invoked. Skills loaded, in order: "card"',
    ]);
  });

  it("grades a run that has expectations and no checks", async () => {
    const { made, createGrader } = counted(friendly);
    const run = await earlier(4);
    expect(await gradeEarlierRun({ createGrader })(run)).toEqual({ judgeCostUsd: 0.25 });
    expect(made.count).toBe(1);
    expect((await gradingOf(run.spec.runDir)).expectations).toEqual([
      { text: "the card is kind", passed: true, evidence: "friendly", source: "judge" },
    ]);
  });

  it("makes the judge once for the runs that have expectations", async () => {
    const { made, createGrader } = counted(friendly);
    const hook = gradeEarlierRun({ createGrader });
    expect(await hook(await earlier(1))).toEqual({ judgeCostUsd: 0.25 });
    expect(await hook(await earlier(1))).toEqual({ judgeCostUsd: 0.25 });
    expect(await hook(await earlier(0))).toEqual({ judgeCostUsd: 0 });
    expect(made.count).toBe(1);
  });

  it("leaves alone a run already graded, one with nothing to grade, and every run once cancelled", async () => {
    const seen = recorder();
    const { made, createGrader } = counted(friendly);
    const graded = await earlier(1);
    await writeFile(join(graded.spec.runDir, "grading.json"), "{}");
    const nothing = await earlier(2);
    const hook = gradeEarlierRun({ createGrader, reporter: seen.reporter, onGraded: seen.onGraded });
    expect(await hook(graded)).toEqual({});
    expect(await hook(nothing)).toEqual({});
    await expect(stat(join(nothing.spec.runDir, "grading.json"))).rejects.toThrow();
    const controller = new AbortController();
    controller.abort();
    const cancelled = await earlier(0);
    expect(
      await gradeEarlierRun({ createGrader, signal: controller.signal, reporter: seen.reporter })(cancelled),
    ).toEqual({});
    await expect(stat(join(cancelled.spec.runDir, "grading.json"))).rejects.toThrow();
    expect(seen.calls).toEqual([]);
    expect(made.count).toBe(0);
  });

  it("reports a run it could not grade, unless the grading was cancelled", async () => {
    const seen = recorder();
    const failing = { createGrader: () => Promise.reject(new Error("no judge today")) };
    const run = await earlier(1);
    expect(
      await gradeEarlierRun({ ...failing, reporter: seen.reporter, onError: seen.onError })(run),
    ).toEqual({});
    expect(seen.calls).toEqual([
      ["start", run.spec.runDir],
      ["end", run.spec.runDir, { failed: true }],
      ["error", run.spec.runDir, "no judge today"],
    ]);
    const quiet = recorder();
    const controller = new AbortController();
    const cut = await earlier(1);
    const hook = gradeEarlierRun({
      createGrader: async () => async () => {
        controller.abort();
        return { expectations: [], model: "m", costUsd: 0 };
      },
      signal: controller.signal,
      reporter: quiet.reporter,
      onError: quiet.onError,
    });
    expect(await hook(cut)).toEqual({});
    expect(quiet.calls).toEqual([
      ["start", cut.spec.runDir],
      ["end", cut.spec.runDir, { failed: true }],
    ]);
  });

  it("passes the suite's variables and the run's sandbox on to command checks", async () => {
    await expectEnvAndSandboxPassedOn(gradeEarlierRun(counted(friendly)), earlier);
  });
});

describe("gradingHooks", () => {
  it("grades each run as it finishes and, on resume, each earlier run left ungraded", async () => {
    const hooks = gradingHooks(counted(friendly));
    const run = await (async () => {
      const spec = specOf(0);
      await writeRun(spec.runDir, { outputs: { "card.txt": "Hello\n" }, events: [loadedCard] });
      return spec;
    })();
    const earlierRun: EarlierRun = {
      spec: run,
      skillName: "card",
      workspace: {
        dir: join(root, "rebuilt", "hooks"),
        configuration: "with_skill",
        eval: run.eval,
        skill,
        excludePaths: [],
        skillsFolder: ".claude/skills",
      },
    };
    expect(await hooks.afterEarlierRun(earlierRun)).toEqual({ judgeCostUsd: 0 });
    expect((await gradingOf(run.runDir)).summary.pass_rate).toBe(1);
    expect(typeof hooks.afterRun).toBe("function");
  });
});

// Both hooks hand a command check the suite's variables and the run's sandbox.
async function expectEnvAndSandboxPassedOn<R extends { spec: { runDir: string } }>(
  hook: (run: R) => Promise<unknown>,
  make: (evalIndex: number, extra: { passEnv: string[]; sandbox?: { bwrap: string } }) => Promise<R>,
): Promise<void> {
  process.env.SKILLGYM_HOOKS_TEST = "passed-on";
  try {
    const withEnv = await make(3, { passEnv: ["SKILLGYM_HOOKS_TEST"] });
    await hook(withEnv);
    expect((await gradingOf(withEnv.spec.runDir)).expectations[0].evidence).toBe(
      "Exit code 0\nstdout:\npassed-on",
    );
    // A bubblewrap that cannot start shows the check went through it.
    const sandboxed = await make(3, {
      passEnv: ["SKILLGYM_HOOKS_TEST"],
      sandbox: { bwrap: "/nonexistent/bwrap" },
    });
    await hook(sandboxed);
    expect((await gradingOf(sandboxed.spec.runDir)).expectations[0].evidence).toMatch(
      /^The command could not be started: /,
    );
  } finally {
    delete process.env.SKILLGYM_HOOKS_TEST;
  }
}
