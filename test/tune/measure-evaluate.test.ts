import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Judge, JudgeRequest } from "../../src/judge/judge.js";
import { evaluateSkill, fallbackRubric } from "../../src/tune/evaluate.js";
import { measureRuns } from "../../src/tune/measure-runs.js";
import { iterationRecord, writeIteration } from "../bench/iteration-fixture.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { skillMd } from "./tune-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let iterationDir: string;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  iterationDir = join(dir, "iteration-1");
  await writeIteration(iterationDir, {
    record: iterationRecord({
      plan: { evals: [1, 2, 3], configurations: ["with_skill"], runs_per_configuration: 2 },
    }),
    evals: [
      { id: 1, name: "greet-ada" },
      { id: 2, name: "greet-bo" },
      { id: 3, name: "greet-cy" },
    ],
    runs: [
      {
        eval: 1,
        configuration: "with_skill",
        run: 1,
        results: { "card names Ada": false, "card.txt exists": true },
      },
      {
        eval: 1,
        configuration: "with_skill",
        run: 2,
        results: { "card names Ada": false, "is kind": false },
      },
      { eval: 1, configuration: "without_skill", run: 1, results: { "card names Ada": true } },
      { eval: 2, configuration: "with_skill", run: 1, outcome: "timeout", error: "ran out of time" },
      { eval: 2, configuration: "with_skill", run: 2, results: { "card names Bo": true } },
      { eval: 3, configuration: "with_skill", run: 1, outcome: "cli_error", error: "exit 1" },
      { eval: 3, configuration: "with_skill", run: 2 },
    ],
  });
  await writeFile(
    join(iterationDir, "eval-1", "with_skill", "run-1", "outputs", "card.txt"),
    "Hello, you!\n",
  );
  await writeTree(dir, {
    "skill/SKILL.md": skillMd("greeter", "Writes cards.", "BODY-V1"),
    "skill/references/tips.md": "Be kind.\n",
    "skill/Intro.md": "Hi.\n",
    "skill/assets/logo.bin": "\u0000\u0001",
  });
});
afterEach(() => cleanup());

describe("measureRuns", () => {
  it("the with_skill runs' pass rate, each eval's failures with evidence (once each) and first outputs, the runs left out", async () => {
    const measured = await measureRuns(iterationDir);
    // Graded with_skill runs: 0.5, 0, 1 → 0.5.
    expect(measured).toEqual({
      passRate: 0.5,
      runs: 6,
      graded: 3,
      errored: 2,
      problems: [
        "greet-bo run-1: timeout: ran out of time",
        "greet-cy run-1: cli_error: exit 1",
        "greet-cy run-2: not graded yet: grading.json is missing",
      ],
      evals: [
        {
          name: "greet-ada",
          prompt: "do task 1",
          passRate: 0.25,
          failed: [
            { text: "card names Ada", evidence: "not found: card names Ada" },
            { text: "is kind", evidence: "not found: is kind" },
          ],
          outputsDir: join(iterationDir, "eval-1", "with_skill", "run-1", "outputs"),
        },
        {
          name: "greet-bo",
          prompt: "do task 2",
          passRate: 1,
          failed: [],
          outputsDir: join(iterationDir, "eval-2", "with_skill", "run-2", "outputs"),
        },
        { name: "greet-cy", prompt: "do task 3", passRate: undefined, failed: [], outputsDir: undefined },
      ],
    });
  });

  it("no pass rate when nothing was graded, and no prompt without the eval's metadata", async () => {
    const empty = join(dir, "iteration-2");
    await writeIteration(empty, {
      record: iterationRecord({
        plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 1 },
      }),
      evals: [{ id: 1 }],
      runs: [{ eval: 1, configuration: "with_skill", run: 1, outcome: "timeout", error: "slow" }],
    });
    await writeFile(join(empty, "eval-1", "eval_metadata.json"), "{}");
    const measured = await measureRuns(empty);
    expect(measured).toMatchObject({ passRate: undefined, runs: 1, graded: 0, errored: 1 });
    expect(measured.evals).toEqual([
      { name: "eval-1", prompt: "", passRate: undefined, failed: [], outputsDir: undefined },
    ]);
  });
});

const VERDICT = {
  dimensions: { clarity: 80, completeness: 70, correctness: 75, effectiveness: 70, efficiency: 60 },
  strengths: ["Short"],
  weaknesses: ["No example"],
  suggestions: [{ priority: "high", text: "Add an example" }],
};

/** A judge that answers from a list (a string, or an Error to throw) and records what it was asked. */
function scriptedJudge(answers: (string | Error)[], costUsd = 0.01) {
  const asked: JudgeRequest[] = [];
  const judge: Judge = {
    backend: "sim",
    model: "judge-model",
    simulated: true,
    complete: async (request) => {
      asked.push(request);
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return {
        text: answer ?? "",
        model: `answered-${asked.length}`,
        inputTokens: 1,
        outputTokens: 1,
        costUsd,
        durationMs: 1,
      };
    },
  };
  return { judge, asked };
}

async function evaluate(judge: Judge, extra: { signal?: AbortSignal } = {}) {
  const measured = await measureRuns(iterationDir);
  return evaluateSkill({
    judge,
    skillName: "greeter",
    skillDir: join(dir, "skill"),
    measured: { ...measured, passRate: 0.5 },
    iterationDir,
    scenario: "Greeting cards",
    previousScores: [41],
    chain: { position: 1, total: 2, downstream: "printer" },
    rawAnswerFile: join(dir, "raw.txt"),
    ...extra,
  });
}

describe("evaluateSkill", () => {
  it("scores the judge's rubric with the pass rate, from a prompt holding the skill's text files, SKILL.md first", async () => {
    const { judge, asked } = scriptedJudge([`Sure:\n${JSON.stringify(VERDICT)}`]);
    expect(await evaluate(judge)).toEqual({
      evaluation: {
        // rubric: 16 + 17.5 + 18.75 + 14 + 6 = 72.25 → 72.3; composite 25 + 36.15 = 61.15 → 61.2.
        score: 61.2,
        rubric_score: 72.3,
        expectation_pass_rate: 0.5,
        dimensions: VERDICT.dimensions,
        strengths: ["Short"],
        weaknesses: ["No example"],
        suggestions: ["[high] Add an example"],
      },
      costUsd: 0.01,
      model: "answered-1",
      fallback: false,
    });
    expect(asked).toHaveLength(1);
    const request = asked[0] as JudgeRequest;
    expect(request).toMatchObject({ maxTokens: 4_000, workspaceDir: iterationDir });
    expect(request).not.toHaveProperty("signal");
    expect(request.system.startsWith("You are the evaluator")).toBe(true);
    const prompt = request.prompt;
    expect(prompt).toContain("Intended use (test scenario): Greeting cards\n");
    expect(prompt).toContain('It is step 1 of 2 of a skill chain: "printer" reads what it produces.');
    expect(prompt).toContain("oldest first): 41\n");
    expect(prompt).toContain(
      '<skill-files>\n<file path="SKILL.md">\n---\nname: greeter\ndescription: Writes cards.\n---\n\nBODY-V1\n\n</file>\n<file path="Intro.md">\nHi.\n\n</file>\n<file path="references/tips.md">\nBe kind.\n\n</file>\n</skill-files>',
    );
    expect(prompt).not.toContain("logo.bin");
    expect(prompt).toContain('<eval name="greet-ada" pass_rate="25%">\nTask given to the agent:\ndo task 1');
    expect(prompt).toContain('<file path="card.txt">\nHello, you!\n');
    expect(prompt).toContain('<eval name="greet-cy" pass_rate="not graded">');
    await expect(readFile(join(dir, "raw.txt"), "utf8")).rejects.toThrow();
  });

  it("asks again once when the answer is not the JSON asked for, saying why", async () => {
    const { judge, asked } = scriptedJudge(["I like it.", JSON.stringify(VERDICT)]);
    const result = await evaluate(judge);
    expect(result).toMatchObject({ costUsd: 0.02, model: "answered-2", fallback: false });
    expect(result.evaluation.score).toBe(61.2);
    expect(asked[1]?.prompt).toBe(
      `${asked[0]?.prompt}\n\nYour previous answer could not be used (it is not the JSON object asked for). Answer with exactly one JSON object.`,
    );
  });

  it("reads the scores out of prose after two answers without JSON, keeping the answer and warning", async () => {
    const prose = "Clarity: 40\nCompleteness: 40\nCorrectness: 40\nEffectiveness: 40\nEfficiency: 40";
    const { judge, asked } = scriptedJudge([new Error("judge timed out"), prose]);
    const raw = join(dir, "raw.txt");
    expect(await evaluate(judge)).toEqual({
      evaluation: {
        score: 45,
        rubric_score: 40,
        expectation_pass_rate: 0.5,
        dimensions: { clarity: 40, completeness: 40, correctness: 40, effectiveness: 40, efficiency: 40 },
        strengths: [],
        weaknesses: [],
        suggestions: [],
        warning: `the evaluator's answer was not JSON; its scores were read from the text (${raw})`,
      },
      costUsd: 0.01,
      model: "answered-2",
      fallback: false,
    });
    expect(asked[1]?.prompt).toContain("could not be used (judge timed out).");
    expect(await readFile(raw, "utf8")).toBe(prose);
  });

  it("falls back to 50 on every dimension when the judge fails twice; such a score never wins", async () => {
    expect(fallbackRubric).toBe(50);
    const { judge } = scriptedJudge([new Error("boom"), "not scores at all"], 0);
    const result = await evaluate(judge);
    expect(result).toEqual({
      evaluation: {
        score: 50,
        rubric_score: 50,
        expectation_pass_rate: 0.5,
        dimensions: { clarity: 50, completeness: 50, correctness: 50, effectiveness: 50, efficiency: 50 },
        strengths: [],
        weaknesses: [],
        suggestions: [],
        warning:
          "the evaluator failed twice (boom; it is not the JSON object asked for); the rubric is the fallback 50",
      },
      costUsd: 0,
      model: "answered-2",
      fallback: true,
    });
    expect(await readFile(join(dir, "raw.txt"), "utf8")).toBe("not scores at all");

    const { judge: silent } = scriptedJudge([new Error("down"), "thrown later" as never]);
    silent.complete = async () => {
      throw "offline";
    };
    const never = await evaluate(silent);
    expect(never).toMatchObject({ model: "judge-model", fallback: true, costUsd: 0 });
    expect(never.evaluation.warning).toBe(
      "the evaluator failed twice (offline; offline); the rubric is the fallback 50",
    );
  });

  it("passes the signal on, and gives up at once when the tune is cancelled", async () => {
    const controller = new AbortController();
    const { judge, asked } = scriptedJudge([]);
    judge.complete = async (request) => {
      asked.push(request);
      controller.abort();
      throw new Error("aborted");
    };
    await expect(evaluate(judge, { signal: controller.signal })).rejects.toThrow("aborted");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.signal).toBe(controller.signal);
  });
});
