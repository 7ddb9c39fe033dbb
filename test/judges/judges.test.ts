import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { writeBenchmark } from "../../src/bench/write-benchmark.js";
import { registerJudges } from "../../src/cli/commands/judges.js";
import { captureIo } from "../../src/cli/io.js";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { JudgesReport } from "../../src/contracts/judges.js";
import {
  ALPHA,
  BETA,
  DELTA,
  EXPECTATIONS,
  GAMMA,
  RUNS,
  runId,
  useJudgedIteration,
} from "./judges-fixture.js";

const judged = useJudgedIteration();

async function judges(args: string[]) {
  const io = captureIo();
  const program = new Command("skillgym").exitOverride();
  registerJudges(program, io);
  await program.parseAsync(["judges", judged.dir, "--sim-script", judged.scriptFile, "--json", ...args], {
    from: "user",
  });
  return { io, report: JudgesReport.parse(JSON.parse(io.stdout())) };
}

// The scripted verdict of each judge, written out as a table, and κ from its 2×2 counts.
const scripted = (judge: string, text: string) =>
  !((judge === "strict" && text === BETA) || (judge === "lenient" && text === GAMMA));
const items = RUNS.flatMap((r) =>
  (EXPECTATIONS[r.eval] ?? []).map((text) => ({ run: runId(r), eval: r.eval, text })),
);

function kappaByHand(pairs: [boolean, boolean][]) {
  const n = pairs.length;
  const count = (f: (p: [boolean, boolean]) => boolean) => pairs.filter(f).length / n;
  const po = count(([a, b]) => a === b);
  const pa = count(([a]) => a);
  const pb = count(([, b]) => b);
  const pe = pa * pb + (1 - pa) * (1 - pb);
  return { po, kappa: (po - pe) / (1 - pe) };
}

describe("skillgym judges against the sim judge, scripted to disagree", () => {
  it("reports percent agreement, κ and the disagreements the script makes, and flags them ambiguous", async () => {
    const { io, report } = await judges(["--judge", "sim:strict,sim:lenient"]);
    expect(io.exitCode()).toBe(0);
    expect(report.runs).toBe(RUNS.length);
    expect(report.judges.map((j) => [j.id, j.verdicts])).toEqual([
      ["sim:strict", items.length],
      ["sim:lenient", items.length],
    ]);
    const expected = kappaByHand(items.map((i) => [scripted("strict", i.text), scripted("lenient", i.text)]));
    // 17 items: beta and gamma (5 each) split the judges; po = 7/17, pe = (12/17)² + (5/17)², κ = −5/12.
    expect(expected.kappa).toBeCloseTo(-5 / 12, 10);
    const [pair] = report.pairs;
    expect(pair).toMatchObject({ a: "sim:strict", b: "sim:lenient", n: items.length });
    expect(pair?.percent_agreement).toBeCloseTo(expected.po, 4);
    expect(pair?.kappa).toBeCloseTo(expected.kappa, 4);
    expect(pair?.kappa_ci?.low).toBeLessThanOrEqual(pair?.kappa ?? 0);
    expect(pair?.kappa_ci?.high).toBeGreaterThanOrEqual(pair?.kappa ?? 0);
    const disagreed = items.filter((i) => scripted("strict", i.text) !== scripted("lenient", i.text));
    expect(pair?.disagreements.map((d) => `${d.run_id} ${d.text}`).sort()).toEqual(
      disagreed.map((i) => `${i.run} ${i.text}`).sort(),
    );
    const beta = pair?.disagreements.find((d) => d.text === BETA);
    expect(beta?.a).toEqual({ passed: false, evidence: "strict: beta is not listed" });
    expect(beta?.b.passed).toBe(true);
    expect(report.self_consistency).toEqual([]);
    expect(report.ambiguous.map((a) => [a.eval_id, a.text, a.reasons])).toEqual([
      [1, BETA, ["sim:strict and sim:lenient disagree on 5 runs"]],
      [1, GAMMA, ["sim:strict and sim:lenient disagree on 5 runs"]],
    ]);
    for (const a of report.ambiguous) expect(a.suggested_rewording).toContain(a.text);
    expect(report.ambiguous.map((a) => a.text)).not.toContain(ALPHA);
    const onDisk = JudgesReport.parse(JSON.parse(await readFile(join(judged.dir, "judges.json"), "utf8")));
    expect(onDisk.pairs).toEqual(report.pairs);
  });

  it("measures each judge against the grades reviewers marked right or wrong", async () => {
    // Every original grade is a PASS: "right" keeps it, "wrong" makes the truth a FAIL.
    const marks = [
      { run: "eval-1-with_skill-run-1", text: BETA, verdict: "wrong", truth: false },
      { run: "eval-1-with_skill-run-1", text: ALPHA, verdict: "right", truth: true },
      { run: "eval-1-with_skill-run-2", text: GAMMA, verdict: "wrong", truth: false },
      { run: "eval-2-with_skill-run-1", text: DELTA, verdict: "right", truth: true },
    ] as const;
    const byRun = new Map<string, (typeof marks)[number][]>();
    for (const m of marks) byRun.set(m.run, [...(byRun.get(m.run) ?? []), m]);
    await writeFile(
      join(judged.dir, "feedback.json"),
      JSON.stringify({
        reviews: [...byRun].map(([run_id, list]) => ({
          run_id,
          feedback: "",
          timestamp: "2026-01-01T00:00:00Z",
          grades: list.map((m) => ({ text: m.text, verdict: m.verdict })),
          reviewer: "kept as is",
        })),
        status: "complete",
      }),
    );
    const { report } = await judges(["--judge", "sim:strict,sim:lenient", "--no-reword"]);
    expect(report.human_marks).toBe(marks.length);
    for (const judge of ["strict", "lenient"]) {
      const expected = kappaByHand(marks.map((m) => [scripted(judge, m.text), m.truth]));
      const found = report.humans.find((h) => h.judge === `sim:${judge}`);
      expect(found?.n).toBe(marks.length);
      expect(found?.percent_agreement).toBeCloseTo(expected.po, 4);
      expect(found?.kappa).toBeCloseTo(expected.kappa, 4);
    }
    expect(report.humans.find((h) => h.judge === "sim:strict")?.disagreements.map((d) => d.text)).toEqual([
      GAMMA,
    ]);
    expect(report.ambiguous.every((a) => a.suggested_rewording === undefined)).toBe(true);
  });

  it("counts the verdicts a judge changes when it grades each run twice", async () => {
    const { report } = await judges(["--judge", "sim:strict,sim:wobbly", "--repeat", "2", "--no-reword"]);
    const deltaRuns = RUNS.filter((r) => r.eval === 2).length;
    expect(report.self_consistency).toEqual([
      { judge: "sim:strict", n: items.length, flips: 0, flip_rate: 0, flipped: [] },
      {
        judge: "sim:wobbly",
        n: items.length,
        flips: deltaRuns,
        flip_rate: Number((deltaRuns / items.length).toFixed(4)),
        flipped: RUNS.filter((r) => r.eval === 2).map((r) => ({ run_id: runId(r), eval_id: 2, text: DELTA })),
      },
    ]);
    expect(report.judges.map((j) => j.verdicts)).toEqual([2 * items.length, 2 * items.length]);
    expect(report.ambiguous).toContainEqual({
      eval_id: 2,
      text: DELTA,
      reasons: [`sim:wobbly changes its verdict on ${deltaRuns} runs when asked again`],
    });
  });

  it("fails the --min-judge-agreement gate below the pair's percent agreement and passes at or above", async () => {
    const po = 7 / 17;
    const below = await judges([
      "--judge",
      "sim:strict,sim:lenient",
      "--no-reword",
      "--min-judge-agreement",
      "0.5",
    ]);
    expect(below.report.gate).toMatchObject({ min_judge_agreement: 0.5, passed: false });
    expect(below.io.exitCode()).toBe(1);
    const above = await judges([
      "--judge",
      "sim:strict,sim:lenient",
      "--no-reword",
      "--min-judge-agreement",
      "0.4",
    ]);
    expect(po).toBeGreaterThan(0.4);
    expect(above.report.gate?.passed).toBe(true);
    expect(above.io.exitCode()).toBe(0);
  });

  it("puts the ambiguous expectations into the benchmark's notes", async () => {
    await writeBenchmark(judged.dir);
    await judges(["--judge", "sim:strict,sim:lenient"]);
    const benchmark = Benchmark.parse(JSON.parse(await readFile(join(judged.dir, "benchmark.json"), "utf8")));
    const notes = (benchmark.notes ?? []).filter((n) => n.startsWith("Ambiguous expectation"));
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain(
      `"${BETA}" (eval 1): sim:strict and sim:lenient disagree on 5 runs; consider:`,
    );
  });

  it("counts the iteration's blind comparisons whose winner changed with the order", async () => {
    const side = { score: 5, strengths: [], weaknesses: [] };
    const rubric = { content: {}, structure: {}, content_score: 3, structure_score: 3, overall_score: 6 };
    const comparison = (winner: string, bias?: boolean) =>
      JSON.stringify({
        winner,
        reasoning: "scripted",
        rubric: { A: rubric, B: rubric },
        output_quality: { A: side, B: side },
        ...(bias === undefined ? {} : { position_bias: bias }),
      });
    const files = {
      "eval-1/comparison-1.json": comparison("TIE", true),
      "eval-1/comparison-2.json": comparison("TIE", true),
      "eval-2/comparison-1.json": comparison("A", false),
      // Made in one order only (before both orders were shown): not counted.
      "eval-2/comparison-2.json": comparison("B"),
    };
    for (const [file, text] of Object.entries(files)) await writeFile(join(judged.dir, file), text);
    try {
      const { io, report } = await judges(["--judge", "sim:strict,sim:lenient", "--no-reword"]);
      expect(report.position_bias).toEqual({ comparisons: 3, biased: 2, rate: 2 / 3 });
      expect(io.exitCode()).toBe(0);
    } finally {
      for (const file of Object.keys(files)) await rm(join(judged.dir, file));
    }
  });
});
