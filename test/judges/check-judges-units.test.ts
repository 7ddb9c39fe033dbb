import { access, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { judgeMarkers, readExpectationsBlock, readTag } from "../../src/contracts/judge-markers.js";
import type { Judge, JudgeRequest } from "../../src/judge/judge.js";
import { checkJudges } from "../../src/judges/check-judges.js";
import { parseJudgeSpecs } from "../../src/judges/judge-spec.js";
import { regradeRuns } from "../../src/judges/regrade.js";
import { iterationRecord, makeIteration, type TempIteration } from "../bench/iteration-fixture.js";

let iteration: TempIteration | undefined;
afterEach(async () => {
  await iteration?.cleanup();
  iteration = undefined;
});

const X = "x is stated";
const Y = "y is listed";

/**
 * A judge that grades each expectation with `verdict(text)`, its evidence naming itself, the expectation and the
 * task; asked for rewordings, it suggests "clearer: <text>". It keeps every request.
 */
function fakeJudge(
  name: string,
  verdict: (text: string) => boolean,
  options: {
    simulated?: boolean;
    gradeCost?: number;
    rewordCost?: number;
    fail?: () => Error | undefined;
  } = {},
): Judge & { requests: JudgeRequest[] } {
  const requests: JudgeRequest[] = [];
  return {
    backend: "sim",
    model: name,
    simulated: options.simulated ?? false,
    requests,
    async complete(request) {
      requests.push(request);
      const failure = options.fail?.();
      if (failure) throw failure;
      const texts = readExpectationsBlock(request.prompt) ?? [];
      const rewording = request.prompt.includes(judgeMarkers.rewording);
      const task = readTag(request.prompt, "task");
      const answer = rewording
        ? { rewordings: texts.map((text) => ({ text, suggestion: `clearer: ${text}` })) }
        : {
            expectations: texts.map((text) => ({
              text,
              passed: verdict(text),
              evidence: `${name} on ${text} in ${task}`,
            })),
          };
      return {
        text: JSON.stringify(answer),
        model: name,
        inputTokens: 1,
        outputTokens: 1,
        costUsd: rewording ? (options.rewordCost ?? 0.5) : (options.gradeCost ?? 0.01),
        durationMs: 1,
      };
    },
  };
}

const spec = (id: string) => parseJudgeSpecs(id).specs[0]!;

// Two evals with the same two expectations, one ungraded finished run each.
async function twoEvals(record: Record<string, unknown> = {}) {
  return makeIteration({
    record: iterationRecord(record),
    evals: [
      { id: 1, assertions: [X, Y] },
      { id: 2, assertions: [X, Y] },
    ],
    runs: [
      { eval: 1, configuration: "with_skill", run: 1, grading: null },
      { eval: 2, configuration: "with_skill", run: 1, grading: null },
    ],
  });
}

const reworded = (judge: { requests: JudgeRequest[] }) =>
  judge.requests.filter((r) => r.prompt.includes(judgeMarkers.rewording));

describe("checkJudges", () => {
  it("asks the first judge to reword each ambiguous expectation with only its own eval's verdicts, at its cost", async () => {
    iteration = await twoEvals();
    const strict = fakeJudge("strict", (text) => text !== X);
    const lenient = fakeJudge("lenient", () => true);
    const graded: string[] = [];
    const checked = await checkJudges({
      iterationDir: iteration.dir,
      judges: [
        { spec: spec("sim:strict"), judge: strict },
        { spec: spec("sim"), judge: lenient },
      ],
      repeat: 1,
      concurrency: 1,
      onGraded: (info) => graded.push(`${info.judge} ${info.runId} ${info.error ?? ""}`),
    });
    const { report } = checked;
    expect(graded.sort()).toEqual([
      "sim eval-1-with_skill-run-1 ",
      "sim eval-2-with_skill-run-1 ",
      "sim:strict eval-1-with_skill-run-1 ",
      "sim:strict eval-2-with_skill-run-1 ",
    ]);
    // Two gradings at 0.01 each, and the first judge pays the analyzer's 0.5.
    expect(report.judges).toEqual([
      { id: "sim:strict", backend: "sim", model: "strict", cost_usd: 0.52, verdicts: 4, errors: [] },
      { id: "sim", backend: "sim", cost_usd: 0.02, verdicts: 4, errors: [] },
    ]);
    expect(report.simulated).toBe(false);
    expect(report.gate).toBeUndefined();
    expect(Object.hasOwn(report, "position_bias")).toBe(false);
    expect(checked.benchmarkRewritten).toBe(false);
    await expect(access(join(iteration.dir, "benchmark.json"))).rejects.toThrow();
    expect(report.ambiguous).toEqual([
      {
        eval_id: 1,
        text: X,
        reasons: ["sim:strict and sim disagree on 1 run"],
        suggested_rewording: `clearer: ${X}`,
      },
      {
        eval_id: 2,
        text: X,
        reasons: ["sim:strict and sim disagree on 1 run"],
        suggested_rewording: `clearer: ${X}`,
      },
    ]);
    const [ask] = reworded(strict);
    expect(reworded(strict)).toHaveLength(1);
    expect(reworded(lenient)).toHaveLength(0);
    const said = ask?.prompt.slice(ask.prompt.indexOf("## What the graders said")) ?? "";
    expect(said).toContain(
      [
        `1. ${JSON.stringify(X)}`,
        "   - sim:strict and sim disagree on 1 run",
        `   - sim:strict FAIL: strict on ${X} in do task 1`,
        `   - sim PASS: lenient on ${X} in do task 1`,
        `2. ${JSON.stringify(X)}`,
        "   - sim:strict and sim disagree on 1 run",
        `   - sim:strict FAIL: strict on ${X} in do task 2`,
        `   - sim PASS: lenient on ${X} in do task 2`,
        "",
      ].join("\n"),
    );
  });

  it("asks for no rewording with reword false, and says when a judge or the iteration was simulated", async () => {
    iteration = await twoEvals();
    const strict = fakeJudge("strict", (text) => text !== X);
    const simulated = fakeJudge("lenient", () => true, { simulated: true });
    const { report } = await checkJudges({
      iterationDir: iteration.dir,
      judges: [
        { spec: spec("sim:strict"), judge: strict },
        { spec: spec("sim:lenient"), judge: simulated },
      ],
      repeat: 1,
      concurrency: 1,
      reword: false,
      minJudgeAgreement: 0.5,
    });
    expect(reworded(strict)).toHaveLength(0);
    expect(report.ambiguous.every((a) => a.suggested_rewording === undefined)).toBe(true);
    expect(report.judges.map((j) => j.cost_usd)).toEqual([0.02, 0.02]);
    expect(report.simulated).toBe(true);
    expect(report.gate).toMatchObject({ min_judge_agreement: 0.5, passed: true });
    await iteration.cleanup();

    iteration = await twoEvals({ simulated: true });
    const again = await checkJudges({
      iterationDir: iteration.dir,
      judges: [{ spec: spec("sim:strict"), judge: fakeJudge("strict", () => true) }],
      repeat: 1,
      concurrency: 1,
    });
    expect(again.report.simulated).toBe(true);
  });

  it("records a judge's failures as errors with no verdicts, and rewrites benchmark.json when there is one", async () => {
    iteration = await twoEvals();
    await writeFile(join(iteration.dir, "benchmark.json"), "{}\n");
    const broken = fakeJudge("broken", () => true, { fail: () => new Error("overloaded") });
    const { report, benchmarkRewritten } = await checkJudges({
      iterationDir: iteration.dir,
      judges: [{ spec: spec("sim:broken"), judge: broken }],
      repeat: 1,
      concurrency: 1,
    });
    expect(report.judges).toEqual([
      {
        id: "sim:broken",
        backend: "sim",
        model: "broken",
        cost_usd: 0,
        verdicts: 0,
        errors: [
          { run_id: "eval-1-with_skill-run-1", error: "overloaded" },
          { run_id: "eval-2-with_skill-run-1", error: "overloaded" },
        ],
      },
    ]);
    expect(benchmarkRewritten).toBe(true);
  });

  it("stops asking and refuses when cancelled while grading", async () => {
    iteration = await twoEvals();
    const controller = new AbortController();
    const judge = fakeJudge("strict", () => true, {
      fail: () => {
        controller.abort();
        return undefined;
      },
    });
    await expect(
      checkJudges({
        iterationDir: iteration.dir,
        judges: [{ spec: spec("sim:strict"), judge }],
        repeat: 1,
        concurrency: 1,
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({
      code: "CANCELLED",
      message: "checking the judges was cancelled",
      hint: "run it again",
    });
    expect(judge.requests).toHaveLength(1);
  });
});

describe("regradeRuns", () => {
  it("records no error for a grading that failed because it was cancelled", async () => {
    const controller = new AbortController();
    const reports: string[] = [];
    const result = await regradeRuns({
      runs: [
        {
          runId: "r1",
          runDir: "/nowhere",
          evalId: 1,
          task: { prompt: "p", expectations: [X] },
          original: [],
        },
      ],
      graders: new Map([
        [
          "j",
          async () => {
            controller.abort();
            throw new Error("aborted");
          },
        ],
      ]),
      repeat: 1,
      concurrency: 1,
      signal: controller.signal,
      onGraded: (info) => reports.push(info.runId),
    });
    expect(result.errors.size).toBe(0);
    expect(reports).toEqual([]);
  });
});
