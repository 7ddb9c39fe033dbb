import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRng } from "../../src/compare/blind.js";
import { compareRuns } from "../../src/compare/comparator.js";
import { type RunSnapshot, readRun } from "../../src/compare/read-run.js";
import { SkillgymError } from "../../src/errors.js";
import { JudgeError } from "../../src/judge/judge.js";
import { scriptedJudge } from "../judge/scripted-judge.js";
import {
  buildWorkspace,
  comparisonAnswer,
  EXPECTATIONS,
  makeTempDir,
  RecordingJudge,
  removeDir,
  TOKENS,
  tokenUnderA,
  type Workspace,
} from "./fixtures.js";

let root: string;
let ws: Workspace;
let withSkill: RunSnapshot;
let withoutSkill: RunSnapshot;

beforeAll(async () => {
  root = await makeTempDir();
  ws = await buildWorkspace(root);
  withSkill = await readRun(ws.withSkill);
  withoutSkill = await readRun(ws.withoutSkill);
});
afterAll(async () => {
  await removeDir(root);
});

describe("compareRuns", () => {
  it("shows the judge both outputs without configuration names or run paths", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
    const request = judge.requests[0];
    const shown = `${request?.system}\n${request?.prompt}`;
    expect(shown).toContain("<skillgym-comparator>");
    expect(shown).toContain("## Output A");
    expect(shown).toContain("## Output B");
    expect(shown).toContain(TOKENS.with_skill);
    expect(shown).toContain(TOKENS.without_skill);
    for (const expectation of EXPECTATIONS) expect(shown).toContain(expectation);
    expect(shown).toContain("File `notes/extra.txt`");
    expect(shown).toContain("File `chart.png` (binary, 9 bytes; content not shown)");
    expect(shown).not.toMatch(/with_skill|without_skill|old_skill/i);
    expect(shown).not.toContain(root);
    expect(shown).not.toContain(ws.withSkill);
    expect(shown).not.toContain("1-with");
    expect(shown).not.toContain("METRICS-SHOULD-NOT-SHOW");
    expect(shown).not.toContain("report-writer");
    expect(request?.workspaceDir).toBeUndefined();
  });

  it("shuffles the labels: both mappings occur, about half each", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    let firstIsA = 0;
    for (let i = 0; i < 200; i++) {
      const result = await compareRuns({ judge, runA: withSkill, runB: withoutSkill, rng: Math.random });
      const seen = tokenUnderA(judge.requests[i]?.prompt ?? "");
      // The mapping must say what the judge really saw under A.
      expect(seen).toBe(result.mapping.A === withSkill.runDir ? TOKENS.with_skill : TOKENS.without_skill);
      if (result.labels.A === "first") firstIsA++;
    }
    expect(firstIsA).toBeGreaterThan(60);
    expect(firstIsA).toBeLessThan(140);
  });

  it("shuffles with crypto randomness when no rng is given", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const seen = new Set<string | undefined>();
    for (let i = 0; i < 64; i++) {
      await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
      seen.add(tokenUnderA(judge.requests[i]?.prompt ?? ""));
    }
    expect(seen).toEqual(new Set([TOKENS.with_skill, TOKENS.without_skill]));
  });

  it("labels the same way for the same seed", async () => {
    const sequence = async (seed: number) => {
      const judge = new RecordingJudge(() => comparisonAnswer("A"));
      const rng = seededRng(seed);
      const labels: string[] = [];
      for (let i = 0; i < 16; i++)
        labels.push((await compareRuns({ judge, runA: withSkill, runB: withoutSkill, rng })).labels.A);
      return labels;
    };
    const once = await sequence(7);
    expect(await sequence(7)).toEqual(once);
    expect(new Set(once).size).toBe(2);
  });

  it("maps the winner back to the run the judge preferred", async () => {
    // The judge prefers whichever label holds the with_skill token.
    const judge = new RecordingJudge((request) =>
      comparisonAnswer(tokenUnderA(request.prompt) === TOKENS.with_skill ? "A" : "B"),
    );
    const winners = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const result = await compareRuns({ judge, runA: withoutSkill, runB: withSkill, rng: Math.random });
      winners.add(result.comparison.winner);
      expect(result.winnerRunDir).toBe(withSkill.runDir);
    }
    expect(winners).toEqual(new Set(["A", "B"]));
  });

  it("gives no winning run for a tie", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("TIE"));
    const result = await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
    expect(result.comparison.winner).toBe("TIE");
    expect(result.winnerRunDir).toBeNull();
  });

  it("recomputes the derived scores and expectation counts", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const { comparison } = await compareRuns({
      judge,
      runA: withSkill,
      runB: withoutSkill,
      rng: seededRng(1),
    });
    expect(comparison.rubric.A).toMatchObject({ content_score: 4.7, structure_score: 5, overall_score: 9.7 });
    expect(comparison.rubric.B).toMatchObject({ content_score: 2.7, structure_score: 3, overall_score: 5.7 });
    expect(comparison.expectation_results?.A).toMatchObject({ passed: 1, total: 2, pass_rate: 0.5 });
  });

  it("reads an answer wrapped in prose and a fence", async () => {
    const judge = new RecordingJudge(
      () => `Here is my verdict:\n\n\`\`\`json\n${comparisonAnswer("B")}\n\`\`\`\nHope that {helps}.`,
    );
    const result = await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
    expect(result.comparison.winner).toBe("B");
    expect(judge.requests).toHaveLength(1);
  });

  it("asks once more after an unusable answer, saying why", async () => {
    const judge = new RecordingJudge((_, i) => (i === 0 ? '{"winner": "C"}' : comparisonAnswer("A")));
    const result = await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
    expect(result.comparison.winner).toBe("A");
    expect(judge.requests).toHaveLength(2);
    expect(judge.requests[1]?.prompt).toContain("Your previous answer could not be used");
    expect(judge.requests[1]?.prompt).toContain("winner");
    expect(result.costUsd).toBeCloseTo(0.02);
  });

  it("fails with a judge error after a second unusable answer", async () => {
    const judge = new RecordingJudge(() => "I prefer the first one.");
    const error = await compareRuns({ judge, runA: withSkill, runB: withoutSkill }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).message).toContain("comparator");
    expect((error as JudgeError).message).toContain("no JSON object");
    expect(judge.requests).toHaveLength(2);
  });

  it("refuses runs of different prompts before asking the judge", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const other = { ...withoutSkill, prompt: "Something else entirely" };
    await expect(compareRuns({ judge, runA: withSkill, runB: other })).rejects.toThrow(/different prompts/);
    expect(judge.requests).toHaveLength(0);
  });

  it("leaves expectation results out when the eval has none", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const bare = (run: RunSnapshot): RunSnapshot => {
      const { metadata: _, ...rest } = run;
      return rest;
    };
    const result = await compareRuns({ judge, runA: bare(withSkill), runB: bare(withoutSkill) });
    expect(result.comparison.expectation_results).toBeUndefined();
    expect(judge.requests[0]?.prompt).not.toContain("<expectations>");
  });
});

/** A run held in memory, in a folder not named after a configuration, whose final message names its own path. */
function memoryRun(name: string, overrides: Partial<RunSnapshot> = {}): RunSnapshot {
  const runDir = `/runs/eval-1/${name}/run-1`;
  const report = `${name} report`;
  return {
    runDir,
    configuration: name,
    evalDir: "/runs/eval-1",
    outputs: [{ path: "report.md", content: report, binary: false, bytes: report.length, clipped: false }],
    transcriptTail: "",
    finalMessage: `Wrote ${runDir}/outputs/report.md`,
    prompt: "Write a report",
    metadata: { eval_id: 1, eval_name: "report", prompt: "Write a report", assertions: ["report.md exists"] },
    ...overrides,
  };
}

function withoutMetadata(run: RunSnapshot): RunSnapshot {
  const { metadata: _, ...rest } = run;
  return rest;
}

const FIRST_IS_A = () => 0;
const FIRST_IS_B = () => 0.9;

function rubricSide(score: number) {
  return {
    content: { correctness: score, completeness: score, accuracy: score },
    structure: { organization: score, formatting: score, usability: score },
    content_score: score,
    structure_score: score,
    overall_score: score * 2,
  };
}

describe("the comparator's prompt", () => {
  it("shows the task, the expectations, both outputs and how to judge them, then the answer's shape", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    await compareRuns({ judge, runA: memoryRun("alpha"), runB: memoryRun("beta"), rng: FIRST_IS_A });
    const quality = { score: 7, strengths: ["…"], weaknesses: ["…"] };
    const expectations = {
      passed: 1,
      total: 2,
      pass_rate: 0.5,
      details: [{ text: "…", passed: true, evidence: "…" }],
    };
    const shape = {
      winner: "A | B | TIE",
      reasoning: "…",
      rubric: { A: rubricSide(4), B: rubricSide(4) },
      output_quality: { A: quality, B: quality },
      expectation_results: { A: expectations, B: expectations },
    };
    expect(judge.requests[0]?.prompt).toBe(
      [
        "<skillgym-comparator>",
        "",
        "## The task both runs were given",
        "",
        "```",
        "Write a report",
        "```",
        "",
        "## Expectations the output should meet, in this order (a JSON array)",
        "",
        "<expectations>",
        "[",
        '  "report.md exists"',
        "]",
        "</expectations>",
        "",
        "## Output A",
        "",
        "Final message of the agent:",
        "",
        "```",
        "Wrote report.md",
        "```",
        "",
        "File `report.md`",
        "",
        "```",
        "alpha report",
        "```",
        "",
        "## Output B",
        "",
        "Final message of the agent:",
        "",
        "```",
        "Wrote report.md",
        "```",
        "",
        "File `report.md`",
        "",
        "```",
        "beta report",
        "```",
        "",
        "## How to judge",
        "",
        "1. Read the task and both outputs, files included. Decide what a good answer to this task needs.",
        "2. Score each output from 1 (poor) to 5 (excellent) on content — correctness, completeness, accuracy — and on",
        "   structure — organization, formatting, usability. Rename or add criteria if the task calls for it.",
        "3. content_score is the mean of the content scores and structure_score the mean of the structure scores, to one",
        "   decimal; overall_score = content_score + structure_score (0 to 10).",
        "4. output_quality: for each output a score from 1 to 10 and its concrete strengths and weaknesses.",
        "5. expectation_results: for each output, every expectation above in order, whether the output meets it",
        "   (`passed`) with short evidence; `passed`, `total` and `pass_rate` count them. The expectations matter,",
        "   but overall quality decides the winner.",
        '6. winner: "A" or "B" for the output that accomplishes the task better; "TIE" only when',
        "   they are genuinely equivalent. reasoning: a few sentences naming the specific differences that decided it.",
        "",
        "## Answer",
        "",
        "One JSON object of this shape (numbers are examples):",
        "",
        "```json",
        JSON.stringify(shape, null, 2),
        "```",
      ].join("\n"),
    );
    expect(judge.requests[0]?.maxTokens).toBe(4096);
  });

  it("asks for no expectation results when the eval has none", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("B"));
    const runA = withoutMetadata(memoryRun("alpha"));
    const runB = withoutMetadata(memoryRun("beta"));
    await compareRuns({ judge, runA, runB, rng: FIRST_IS_A });
    const prompt = judge.requests[0]?.prompt ?? "";
    const quality = { score: 7, strengths: ["…"], weaknesses: ["…"] };
    const shape = {
      winner: "A | B | TIE",
      reasoning: "…",
      rubric: { A: rubricSide(4), B: rubricSide(4) },
      output_quality: { A: quality, B: quality },
    };
    expect(prompt).not.toContain("## Expectations");
    expect(prompt.slice(prompt.indexOf("## How to judge"))).toBe(
      [
        "## How to judge",
        "",
        "1. Read the task and both outputs, files included. Decide what a good answer to this task needs.",
        "2. Score each output from 1 (poor) to 5 (excellent) on content — correctness, completeness, accuracy — and on",
        "   structure — organization, formatting, usability. Rename or add criteria if the task calls for it.",
        "3. content_score is the mean of the content scores and structure_score the mean of the structure scores, to one",
        "   decimal; overall_score = content_score + structure_score (0 to 10).",
        "4. output_quality: for each output a score from 1 to 10 and its concrete strengths and weaknesses.",
        '5. winner: "A" or "B" for the output that accomplishes the task better; "TIE" only when',
        "   they are genuinely equivalent. reasoning: a few sentences naming the specific differences that decided it.",
        "",
        "## Answer",
        "",
        "One JSON object of this shape (numbers are examples):",
        "",
        "```json",
        JSON.stringify(shape, null, 2),
        "```",
      ].join("\n"),
    );
  });

  it("shows the first run as A when the draw says so, and the second otherwise", async () => {
    const runA = memoryRun("alpha");
    const runB = memoryRun("beta");
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const first = await compareRuns({ judge, runA, runB, rng: FIRST_IS_A });
    expect(first.labels).toEqual({ A: "first", B: "second" });
    expect(first.mapping).toEqual({ A: runA.runDir, B: runB.runDir });
    expect(first.winnerRunDir).toBe(runA.runDir);
    const second = await compareRuns({ judge, runA, runB, rng: FIRST_IS_B });
    expect(second.labels).toEqual({ A: "second", B: "first" });
    expect(second.mapping).toEqual({ A: runB.runDir, B: runA.runDir });
    expect(second.winnerRunDir).toBe(runB.runDir);
    const prompt = judge.requests[1]?.prompt ?? "";
    expect(prompt.indexOf("beta report")).toBeLessThan(prompt.indexOf("alpha report"));
  });

  it("shows files under outputs/ by their relative path, whatever the run folders are called", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const runA = memoryRun("alpha", { finalMessage: "Saved /runs/eval-1/alpha/run-1/outputs/report.md" });
    const runB = memoryRun("beta", { finalMessage: "Left notes in /runs/eval-1/beta/run-1" });
    await compareRuns({ judge, runA, runB, rng: FIRST_IS_A });
    const prompt = judge.requests[0]?.prompt ?? "";
    expect(prompt).toContain("```\nSaved report.md\n```");
    expect(prompt).toContain("```\nLeft notes in <run>\n```");
    expect(prompt).not.toContain("/runs/");
  });

  it("passes the signal on to the judge", async () => {
    const judge = scriptedJudge([comparisonAnswer("A")]);
    const controller = new AbortController();
    controller.abort(new Error("stopped by the user"));
    await expect(
      compareRuns({ judge, runA: memoryRun("alpha"), runB: memoryRun("beta"), signal: controller.signal }),
    ).rejects.toThrow("stopped by the user");
    expect(judge.requests).toHaveLength(0);
  });
});

describe("the task two runs are compared on", () => {
  it("is the same prompt even when the two differ in surrounding white space", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const result = await compareRuns({
      judge,
      runA: memoryRun("alpha", { prompt: "Write a report\n" }),
      runB: memoryRun("beta", { prompt: "  Write a report" }),
    });
    expect(result.task).toEqual({ prompt: "Write a report\n", expectations: ["report.md exists"] });
  });

  it("comes from whichever run knows it", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const known = memoryRun("alpha");
    const unknown = withoutMetadata(memoryRun("beta", { prompt: undefined }));
    const first = await compareRuns({ judge, runA: unknown, runB: known });
    expect(first.task).toEqual({ prompt: "Write a report", expectations: ["report.md exists"] });
    const second = await compareRuns({ judge, runA: known, runB: unknown });
    expect(second.task).toEqual({ prompt: "Write a report", expectations: ["report.md exists"] });
  });

  it("must be the same for both runs", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const runA = memoryRun("alpha");
    const runB = memoryRun("beta", { prompt: "Write a poem" });
    const error = await compareRuns({ judge, runA, runB }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "BAD_INPUT",
      message:
        "/runs/eval-1/alpha/run-1 and /runs/eval-1/beta/run-1 answer different prompts, so their outputs cannot be compared",
      hint: "compare two runs of the same eval (the same eval-<id> folder, in any iteration)",
    });
  });

  it("must be known from at least one run", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const runA = withoutMetadata(memoryRun("alpha", { prompt: undefined }));
    const runB = withoutMetadata(memoryRun("beta", { prompt: undefined }));
    const error = await compareRuns({ judge, runA, runB }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "BAD_INPUT",
      message:
        "neither /runs/eval-1/alpha/run-1 nor /runs/eval-1/beta/run-1 says what the task was (no eval_metadata.json, no prompt in transcript.md)",
      hint: "compare run folders written by `skillgym eval`, which keep eval_metadata.json beside them",
    });
    expect(judge.requests).toHaveLength(0);
  });
});
