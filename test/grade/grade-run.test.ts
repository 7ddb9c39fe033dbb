import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Check } from "../../src/contracts/checks.js";
import { SkillgymError } from "../../src/errors.js";
import { type GradeRunInput, gradeRun, type JudgeVerdicts } from "../../src/grade/grade-run.js";
import type { JudgeInput } from "../../src/grade/judge-input.js";
import { createRedactor } from "../../src/redact.js";

let root: string;
let workspace: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "skillgym-grade-run-"));
  workspace = join(root, "workspace");
  await mkdir(workspace);
  await writeFile(join(workspace, "summary.md"), "# Sales\ntotal: 42\ntoken sk-live-0123456789abcdef\n");
});
afterAll(() => rm(root, { recursive: true, force: true }));

let runs = 0;
// A finished run folder: what the agent wrote in outputs/, its metrics and timing, its transcript.
async function runFolder(files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, `run-${++runs}`);
  await mkdir(join(dir, "outputs"), { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

const metrics = {
  tool_calls: { Write: 1 },
  total_tool_calls: 1,
  total_steps: 3,
  files_created: ["summary.md"],
};
const checks: Check[] = [
  { type: "file_exists", path: "summary.md" },
  { type: "file_contains", path: "summary.md", pattern: "total: 7" },
];

function input(runDir: string, extra: Partial<GradeRunInput> = {}): GradeRunInput {
  return {
    runDir,
    eval: { prompt: "Summarise sales.csv", expectations: [], checks },
    skillName: "csv-summary",
    workspaceDir: workspace,
    events: [],
    changes: { created: ["summary.md"], modified: [], deleted: [] },
    commandTimeoutMs: 10_000,
    ...extra,
  };
}

async function gradingFile(runDir: string): Promise<unknown> {
  return JSON.parse(await readFile(join(runDir, "grading.json"), "utf8"));
}

// The grader's clock is real: its fields are checked for agreeing with each other, the rest exactly.
function expectClock(timing: Record<string, unknown>, executorSeconds: number) {
  const start = Date.parse(String(timing.grader_start));
  const end = Date.parse(String(timing.grader_end));
  expect(end).toBeGreaterThanOrEqual(start);
  expect(timing.grader_duration_seconds).toBe((end - start) / 1000);
  expect(timing.total_duration_seconds).toBe(Number((executorSeconds + (end - start) / 1000).toFixed(3)));
}

const fileChecks = [
  {
    text: "summary.md exists",
    passed: true,
    evidence: "summary.md exists (a file of 49 bytes, created by the run)",
    source: "check",
    check_type: "file_exists",
  },
  {
    text: "summary.md matches /total: 7/",
    passed: false,
    evidence:
      "No match for /total: 7/ in summary.md (3 lines); it begins:\n# Sales\ntotal: 42\ntoken sk-live-0123456789abcdef\n",
    source: "check",
    check_type: "file_contains",
  },
];

describe("gradeRun with a judge", () => {
  it("shows the judge the run, puts its verdicts before the checks', and writes grading.json", async () => {
    const runDir = await runFolder({
      "outputs/metrics.json": JSON.stringify(metrics),
      "outputs/notes.md": "sales went up",
      "timing.json": JSON.stringify({
        executor_duration_seconds: 12.5,
        total_tokens: 900,
        model: "claude-x",
      }),
      "transcript.md": "# Transcript\nwrote summary.md\n",
    });
    const shown: JudgeInput[] = [];
    const verdicts: JudgeVerdicts = {
      expectations: [
        { text: "names the total", passed: true, evidence: "says total: 42" },
        { text: "mentions the region", passed: false, evidence: "no region" },
      ],
      claims: [{ claim: "total is 42", type: "factual", verified: true }],
      user_notes_summary: { uncertainties: ["which year"], needs_review: [], workarounds: [] },
      eval_feedback: { suggestions: [{ reason: "too easy" }], overall: "fine" },
      model: "judge-model",
      backend: "sim",
      costUsd: 0.0123,
      refused: ["Write notes.md"],
    };
    const result = await gradeRun(
      input(runDir, {
        eval: {
          prompt: "Summarise sales.csv",
          expected_output: "a summary",
          expectations: ["names the total", "mentions the region"],
          checks,
        },
        grader: async (judged) => {
          shown.push(judged);
          return verdicts;
        },
      }),
    );
    expect(shown).toEqual([
      {
        prompt: "Summarise sales.csv",
        expectedOutput: "a summary",
        expectations: ["names the total", "mentions the region"],
        outputs: [{ path: "notes.md", content: "sales went up" }],
        transcript: "# Transcript\nwrote summary.md\n",
        runDir,
      },
    ]);
    const grading = result.grading as unknown as Record<string, unknown> & {
      timing: Record<string, unknown>;
    };
    expect(grading).toEqual({
      expectations: [
        { text: "names the total", passed: true, evidence: "says total: 42", source: "judge" },
        { text: "mentions the region", passed: false, evidence: "no region", source: "judge" },
        ...fileChecks,
      ],
      summary: { passed: 2, failed: 2, total: 4, pass_rate: 0.5 },
      execution_metrics: metrics,
      timing: {
        executor_duration_seconds: 12.5,
        total_tokens: 900,
        model: "claude-x",
        grader_start: expect.any(String),
        grader_end: expect.any(String),
        grader_duration_seconds: expect.any(Number),
        total_duration_seconds: expect.any(Number),
      },
      claims: [{ claim: "total is 42", type: "factual", verified: true }],
      user_notes_summary: { uncertainties: ["which year"], needs_review: [], workarounds: [] },
      eval_feedback: { suggestions: [{ reason: "too easy" }], overall: "fine" },
      judge_model: "judge-model",
      judge_backend: "sim",
      judge_cost_usd: 0.0123,
      judge_refused: ["Write notes.md"],
    });
    expectClock(grading.timing, 12.5);
    expect(result.judgeCostUsd).toBe(0.0123);
    expect(result.judgeModel).toBe("judge-model");
    expect(await gradingFile(runDir)).toEqual(grading);
  });

  it("leaves out what the judge did not say, and what the run folder does not hold", async () => {
    const runDir = await runFolder();
    const result = await gradeRun(
      input(runDir, {
        eval: { prompt: "p", expectations: ["names the total"], checks: [] },
        grader: async (judged) => {
          expect(judged).toEqual({
            prompt: "p",
            expectations: ["names the total"],
            outputs: [],
            transcript: "",
            runDir,
          });
          return {
            expectations: [{ text: "names the total", passed: true, evidence: "yes" }],
            model: "m",
            costUsd: 0,
          };
        },
      }),
    );
    expect(result.grading).toEqual({
      expectations: [{ text: "names the total", passed: true, evidence: "yes", source: "judge" }],
      summary: { passed: 1, failed: 0, total: 1, pass_rate: 1 },
      timing: {
        grader_start: expect.any(String),
        grader_end: expect.any(String),
        grader_duration_seconds: expect.any(Number),
        total_duration_seconds: expect.any(Number),
      },
      claims: [],
      user_notes_summary: { uncertainties: [], needs_review: [], workarounds: [] },
      judge_model: "m",
      judge_cost_usd: 0,
    });
    expectClock(result.grading.timing as Record<string, unknown>, 0);
    expect(result).toEqual({ grading: result.grading, judgeCostUsd: 0, judgeModel: "m" });
  });
});

describe("gradeRun with checks only", () => {
  it("needs no judge, rounds the pass rate to four places, and names no judge", async () => {
    const runDir = await runFolder({ "timing.json": JSON.stringify({ executor_duration_seconds: 3 }) });
    const result = await gradeRun(
      input(runDir, {
        eval: {
          prompt: "p",
          expectations: [],
          checks: [...checks, { type: "file_unchanged", path: "summary.md" }],
        },
      }),
    );
    expect(Object.keys(result)).toEqual(["grading", "judgeCostUsd"]);
    expect(result.judgeCostUsd).toBe(0);
    expect(result.grading).toEqual({
      expectations: [
        ...fileChecks,
        {
          text: "summary.md is left unchanged",
          passed: false,
          evidence: "The run created summary.md",
          source: "check",
          check_type: "file_unchanged",
        },
      ],
      summary: { passed: 1, failed: 2, total: 3, pass_rate: 0.3333 },
      timing: {
        executor_duration_seconds: 3,
        grader_start: expect.any(String),
        grader_end: expect.any(String),
        grader_duration_seconds: expect.any(Number),
        total_duration_seconds: expect.any(Number),
      },
      claims: [],
      user_notes_summary: { uncertainties: [], needs_review: [], workarounds: [] },
    });
    expectClock(result.grading.timing as Record<string, unknown>, 3);
    expect(await gradingFile(runDir)).toEqual(result.grading);
  });

  it("gives a run with nothing to grade a pass rate of 0", async () => {
    const runDir = await runFolder();
    const result = await gradeRun(input(runDir, { eval: { prompt: "p", expectations: [], checks: [] } }));
    expect(result.grading.summary).toEqual({ passed: 0, failed: 0, total: 0, pass_rate: 0 });
  });

  it("masks a credential the checks quote, in grading.json too", async () => {
    const runDir = await runFolder();
    const redactor = createRedactor([{ name: "OPENAI_API_KEY", value: "sk-live-0123456789abcdef" }]);
    const result = await gradeRun(
      input(runDir, {
        redactor,
        eval: {
          prompt: "p",
          expectations: [],
          checks: [{ type: "file_contains", path: "summary.md", pattern: "token" }],
        },
      }),
    );
    expect(result.grading.expectations[0]?.evidence).toBe(
      'Found on line 3 of summary.md: "token [redacted:OPENAI_API_KEY]"',
    );
    expect(JSON.stringify(await gradingFile(runDir))).not.toContain("sk-live");
  });
});

describe("gradeRun's command checks", () => {
  it("pass the suite's variables, and go through a sandboxed run's bubblewrap", async () => {
    process.env.SKILLGYM_GRADE_RUN_TEST = "passed-on";
    try {
      const runDir = await runFolder();
      const printenv: Check = { type: "command", run: "printenv SKILLGYM_GRADE_RUN_TEST" };
      const passed = await gradeRun(
        input(runDir, {
          eval: { prompt: "p", expectations: [], checks: [printenv] },
          passEnv: ["SKILLGYM_GRADE_RUN_TEST"],
        }),
      );
      expect(passed.grading.expectations[0]).toMatchObject({
        passed: true,
        evidence: "Exit code 0\nstdout:\npassed-on",
      });
      const withheld = await gradeRun(
        input(runDir, { eval: { prompt: "p", expectations: [], checks: [printenv] } }),
      );
      expect(withheld.grading.expectations[0]).toMatchObject({
        passed: false,
        evidence: "Exit code 1 (expected 0)",
      });
      // A bubblewrap that cannot start shows the check went through it (the real one: test/sandbox).
      const sandboxed = await gradeRun(
        input(runDir, {
          eval: { prompt: "p", expectations: [], checks: [{ type: "command", run: "true" }] },
          sandbox: { bwrap: "/nonexistent/bwrap" },
        }),
      );
      expect(sandboxed.grading.expectations[0]?.evidence).toMatch(/^The command could not be started: /);
    } finally {
      delete process.env.SKILLGYM_GRADE_RUN_TEST;
    }
  });

  it("are stopped by a cancelled grade, which then leaves the run ungraded", async () => {
    const runDir = await runFolder();
    const controller = new AbortController();
    controller.abort();
    const started = Date.now();
    const error = (await gradeRun(
      input(runDir, {
        eval: { prompt: "p", expectations: [], checks: [{ type: "command", run: "sleep 30" }] },
        signal: controller.signal,
        commandTimeoutMs: 60_000,
      }),
    ).catch((e: unknown) => e)) as SkillgymError;
    expect(error.code).toBe("CANCELLED");
    // The check saw the signal: it did not sleep its 30 s out.
    expect(Date.now() - started).toBeLessThan(15_000);
    await expect(readFile(join(runDir, "grading.json"))).rejects.toThrow();
  });
});

describe("gradeRun refusals", () => {
  it("refuses expectations without a judge, writing nothing", async () => {
    const runDir = await runFolder();
    const error = (await gradeRun(
      input(runDir, { eval: { prompt: "p", expectations: ["x"], checks: [] } }),
    ).catch((e: unknown) => e)) as SkillgymError;
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error.code).toBe("USAGE");
    expect(error.message).toBe(`${runDir}: expectations need a judge to grade them`);
    expect(error.hint).toBe(
      "choose one with --judge (claude-code, codex, gemini, opencode, copilot, anthropic, openai, sim)",
    );
    await expect(readFile(join(runDir, "grading.json"))).rejects.toThrow();
  });

  it("leaves a run whose grading was cancelled ungraded", async () => {
    const runDir = await runFolder();
    const controller = new AbortController();
    const error = (await gradeRun(
      input(runDir, {
        eval: { prompt: "p", expectations: ["x"], checks: [] },
        signal: controller.signal,
        grader: async () => {
          controller.abort();
          return { expectations: [{ text: "x", passed: true, evidence: "e" }], model: "m", costUsd: 0.5 };
        },
      }),
    ).catch((e: unknown) => e)) as SkillgymError;
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error.code).toBe("CANCELLED");
    expect(error.message).toBe(`${runDir}: grading was cancelled`);
    expect(error.hint).toBe("resume the iteration to grade it");
    await expect(readFile(join(runDir, "grading.json"))).rejects.toThrow();
  });
});
