import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createJudge } from "../../src/judge/create.js";
import type { Judge, JudgeRequest } from "../../src/judge/judge.js";
import { checkJudges } from "../../src/judges/check-judges.js";
import { parseJudgeSpecs } from "../../src/judges/judge-spec.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import type { TempIteration } from "../bench/iteration-fixture.js";
import { BETA, GAMMA, judgedIteration, script } from "./judges-fixture.js";

// checkJudges in this process, its judges the sim judges wrapped to record every prompt and to cost a known amount.
let iteration: TempIteration;
let sim: SimServer;
beforeEach(async () => {
  iteration = await judgedIteration();
  sim = await startSim({ script });
});
afterEach(async () => {
  await sim.close();
  await iteration.cleanup();
});

interface Recorded {
  judge: Judge;
  prompts: string[];
}

async function recordingJudges(value: string, costUsd: number, simulated = true) {
  const { specs } = parseJudgeSpecs(value);
  const recorded: Recorded[] = [];
  const judges = [];
  for (const spec of specs) {
    const inner = await createJudge({
      backend: spec.backend,
      ...(spec.model ? { model: spec.model } : {}),
      simulatorUrl: sim.url,
    });
    const prompts: string[] = [];
    const judge: Judge = {
      backend: inner.backend,
      model: inner.model,
      simulated,
      complete: async (request: JudgeRequest) => {
        prompts.push(request.prompt);
        return { ...(await inner.complete(request)), costUsd };
      },
    };
    recorded.push({ judge, prompts });
    judges.push({ spec, judge });
  }
  return { judges, recorded };
}

const GRADINGS = 7; // one grading prompt per run, once per judge

describe("checkJudges", () => {
  it("hands the first judge each ambiguous expectation with both judges' verdicts, and bills it for the call", async () => {
    const { judges, recorded } = await recordingJudges("sim:strict,sim:lenient", 0.01);
    const { report } = await checkJudges({ iterationDir: iteration.dir, judges, repeat: 1, concurrency: 2 });
    const [strict, lenient] = recorded;
    // The reworder is the first judge, asked once more than it grades; the second judge only grades.
    expect(lenient!.prompts).toHaveLength(GRADINGS);
    expect(strict!.prompts).toHaveLength(GRADINGS + 1);
    const reword = strict!.prompts.find((p) => !lenient!.prompts.includes(p))!;
    expect(reword).toContain(BETA);
    expect(reword).toContain(GAMMA);
    expect(reword).toContain("sim:strict FAIL: strict: beta is not listed");
    expect(reword).toContain("sim:lenient PASS:");
    expect(reword).toContain("sim:lenient FAIL: lenient: gamma is wrong");
    // Each expectation quotes its own disagreements, not the other's.
    const said = reword.slice(reword.indexOf("## What the graders said"));
    const betaPart = said.slice(said.indexOf(JSON.stringify(BETA)), said.indexOf(JSON.stringify(GAMMA)));
    const gammaPart = said.slice(said.indexOf(JSON.stringify(GAMMA)));
    expect(betaPart).toContain("strict: beta is not listed");
    expect(betaPart).not.toContain("gamma is wrong");
    expect(gammaPart).toContain("lenient: gamma is wrong");
    expect(gammaPart).not.toContain("beta is not listed");
    // Only disagreements on the expectation itself are quoted: eval 2's delta split nobody.
    expect(reword).not.toContain("delta file exists");
    expect(report.judges.map((j) => j.cost_usd)).toEqual([
      Number(((GRADINGS + 1) * 0.01).toFixed(10)),
      Number((GRADINGS * 0.01).toFixed(10)),
    ]);
    expect(report.ambiguous.every((a) => a.suggested_rewording !== undefined)).toBe(true);
  });

  it("asks for no rewording when told not to, or when nothing is ambiguous", async () => {
    const off = await recordingJudges("sim:strict,sim:lenient", 0.01);
    const { report } = await checkJudges({
      iterationDir: iteration.dir,
      judges: off.judges,
      repeat: 1,
      concurrency: 2,
      reword: false,
    });
    expect(off.recorded[0]!.prompts).toHaveLength(GRADINGS);
    expect(report.ambiguous.length).toBeGreaterThan(0);
    expect(report.ambiguous.every((a) => a.suggested_rewording === undefined)).toBe(true);
    expect(report.judges[0]!.cost_usd).toBeCloseTo(GRADINGS * 0.01, 10);

    const agreeing = await recordingJudges("sim:a,sim:b", 0);
    const calm = await checkJudges({
      iterationDir: iteration.dir,
      judges: agreeing.judges,
      repeat: 1,
      concurrency: 2,
    });
    expect(calm.report.ambiguous).toEqual([]);
    expect(agreeing.recorded[0]!.prompts).toHaveLength(GRADINGS);
  });

  it("calls the report simulated when the runs or any judge were, and says whether benchmark.json was rewritten", async () => {
    const real = await recordingJudges("sim:a,sim:b", 0, false);
    const { report, benchmarkRewritten, path } = await checkJudges({
      iterationDir: iteration.dir,
      judges: real.judges,
      repeat: 1,
      concurrency: 1,
    });
    // The fixture's runs were simulated: that alone makes the report simulated.
    expect(report.simulated).toBe(true);
    expect(path).toBe(`${iteration.dir}/judges.json`);
    expect(benchmarkRewritten).toBe(false);
  });
});
