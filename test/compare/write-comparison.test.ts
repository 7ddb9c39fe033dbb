import { readdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { RunSnapshot } from "../../src/compare/read-run.js";
import { defaultOutDir, writeComparison } from "../../src/compare/write-comparison.js";
import { Analysis } from "../../src/contracts/analysis.js";
import { Comparison } from "../../src/contracts/comparison.js";
import { SkillgymError } from "../../src/errors.js";
import { JudgeError } from "../../src/judge/judge.js";
import {
  analysisAnswer,
  comparisonAnswer,
  RecordingJudge,
  TOKENS,
  tokenUnderA,
  useWorkspace,
  writeTree,
} from "./fixtures.js";

const ws = useWorkspace();

const isAnalyzer = (prompt: string) => prompt.includes("<skillgym-analyzer>");

// Prefers the with_skill run, whichever label it got, and explains it when asked.
function preferWithSkill(): RecordingJudge {
  return new RecordingJudge((request) => {
    if (isAnalyzer(request.prompt)) return analysisAnswer();
    return comparisonAnswer(tokenUnderA(request.prompt) === TOKENS.with_skill ? "A" : "B");
  });
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, "utf8"));
}

describe("writeComparison", () => {
  it("shows the outputs in both orders, and calls a judge that always picks the first shown a biased tie", async () => {
    const firstShown = new RecordingJudge((request) =>
      isAnalyzer(request.prompt) ? analysisAnswer() : comparisonAnswer("A"),
    );
    const written = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge: firstShown,
      seed: 2,
    });
    const shownFirst = firstShown.requests.map((r) => tokenUnderA(r.prompt));
    expect(new Set(shownFirst)).toEqual(new Set([TOKENS.with_skill, TOKENS.without_skill]));
    expect(written.comparison).toMatchObject({ winner: "TIE", position_bias: true });
    expect(written.comparison.reasoning).toMatch(/^Position-inconsistent/);
    expect(written.winnerRunDir).toBeNull();
    expect(written.analysisSkipped).toBe("tie");
    expect(Comparison.parse(await readJson(written.comparisonPath)).position_bias).toBe(true);
  });

  it("compares once when asked to, and then cannot see the bias", async () => {
    const firstShown = new RecordingJudge(() => comparisonAnswer("A"));
    const written = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge: firstShown,
      analyze: false,
      bothOrders: false,
    });
    expect(firstShown.requests).toHaveLength(1);
    expect(written.comparison.winner).toBe("A");
    expect(written.comparison.position_bias).toBeUndefined();
  });

  it("writes the comparison, its label mapping and the analysis in the eval folder", async () => {
    const judge = preferWithSkill();
    const written = await writeComparison({
      runDirA: ws.withoutSkill,
      runDirB: ws.withSkill,
      judge,
      seed: 11,
    });
    expect(written.comparisonPath).toBe(path.join(ws.evalDir, "comparison-1.json"));
    expect(written.mappingPath).toBe(path.join(ws.evalDir, "comparison-1.mapping.json"));
    expect(written.analysisPath).toBe(path.join(ws.evalDir, "analysis.json"));
    expect(written.winnerRunDir).toBe(ws.withSkill);

    const comparison = Comparison.parse(await readJson(written.comparisonPath));
    expect(comparison.winner).toBe(written.comparison.winner);
    const mapping = (await readJson(written.mappingPath)) as Record<string, unknown>;
    expect(mapping).toMatchObject({ seed: 11, judge_model: "recording-judge", simulated: false });
    expect(written.mapping).toStrictEqual(mapping);
    expect(mapping[comparison.winner]).toBe(ws.withSkill);
    expect(new Set([mapping.A, mapping.B])).toEqual(new Set([ws.withSkill, ws.withoutSkill]));

    const analysis = Analysis.parse(await readJson(written.analysisPath ?? ""));
    expect(analysis.comparison_summary).toMatchObject({
      winner: comparison.winner,
      winner_skill: ws.skillDir,
      loser_skill: "none (without_skill)",
      comparator_reasoning: "The winner named the best quarter.",
    });
    // Two comparator calls (both orders) and the analyzer's.
    expect(written.costUsd).toBeCloseTo(0.03);
    expect(comparison.position_bias).toBe(false);
    expect(await readdir(ws.evalDir)).not.toContainEqual(expect.stringMatching(/\.tmp$/));
  });

  it("unblinds for the analyzer: skills, transcripts and the comparator's reasoning", async () => {
    const judge = preferWithSkill();
    await writeComparison({ runDirA: ws.withSkill, runDirB: ws.withoutSkill, judge });
    const prompt = judge.requests.find((r) => isAnalyzer(r.prompt))?.prompt ?? "";
    expect(prompt).toContain("Always put the best quarter first.");
    expect(prompt).toContain("This run had no skill");
    expect(prompt).toContain("**Tool call: Write**");
    expect(prompt).toMatch(/Winner: Output [AB]\. Reasoning: Output [AB] is better\./);
    expect(prompt).toContain(`configuration with_skill, ${ws.withSkill}`);
  });

  it("takes the next free n and keeps an existing analysis.json", async () => {
    await writeTree(ws.evalDir, {
      "comparison-1.json": "{}",
      "comparison-4.json": "{}",
      "analysis.json": '{"keep": true}',
    });
    const first = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge: preferWithSkill(),
    });
    expect(path.basename(first.comparisonPath)).toBe("comparison-5.json");
    expect(path.basename(first.mappingPath)).toBe("comparison-5.mapping.json");
    expect(path.basename(first.analysisPath ?? "")).toBe("analysis-5.json");
    expect(await readJson(path.join(ws.evalDir, "analysis.json"))).toEqual({ keep: true });
    const second = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge: preferWithSkill(),
    });
    expect(path.basename(second.comparisonPath)).toBe("comparison-6.json");
  });

  it("skips the analysis when asked and for a tie", async () => {
    const noAnalysis = preferWithSkill();
    const skipped = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge: noAnalysis,
      analyze: false,
    });
    expect(skipped).toMatchObject({ analysisPath: undefined, analysisSkipped: "not requested" });
    expect(noAnalysis.requests).toHaveLength(2);

    const tie = new RecordingJudge(() => comparisonAnswer("TIE"));
    const tied = await writeComparison({ runDirA: ws.withSkill, runDirB: ws.withoutSkill, judge: tie });
    expect(tied).toMatchObject({ winnerRunDir: null, analysisPath: undefined, analysisSkipped: "tie" });
    expect(tie.requests).toHaveLength(2);
    expect(await readdir(ws.evalDir)).not.toContain("analysis.json");
  });

  it("uses the skills given for each run and writes where told", async () => {
    const other = path.join(ws.root, "other-skill");
    await writeTree(other, { "SKILL.md": "---\nname: other-skill\ndescription: x\n---\nOTHER-SKILL-BODY\n" });
    const out = path.join(ws.root, "out");
    const judge = preferWithSkill();
    const written = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge,
      outDir: out,
      skillPaths: { b: path.join(other, "SKILL.md") },
    });
    expect(path.dirname(written.comparisonPath)).toBe(out);
    expect(written.analysis?.comparison_summary.loser_skill).toBe(other);
    expect(judge.requests.find((r) => isAnalyzer(r.prompt))?.prompt).toContain("OTHER-SKILL-BODY");
  });

  it("checks a given skill path before asking the judge", async () => {
    const judge = preferWithSkill();
    const missing = path.join(ws.root, "missing-skill");
    const error = (await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge,
      skillPaths: { a: missing },
    }).catch((e: unknown) => e)) as SkillgymError;
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error.message).toContain(missing);
    expect(judge.requests).toHaveLength(0);
  });

  it("writes runs of different iterations into their common folder", async () => {
    const later = path.join(
      ws.root,
      "report-writer-workspace",
      "iteration-2",
      "eval-1",
      "with_skill",
      "run-1",
    );
    await writeTree(later, {
      "outputs/report.md": "later",
      "transcript.md": await readFile(path.join(ws.withSkill, "transcript.md"), "utf8"),
    });
    await writeFile(
      path.join(ws.root, "report-writer-workspace", "iteration-2", "eval-1", "eval_metadata.json"),
      await readFile(path.join(ws.evalDir, "eval_metadata.json")),
    );
    const written = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: later,
      judge: preferWithSkill(),
      analyze: false,
    });
    expect(path.dirname(written.comparisonPath)).toBe(path.join(ws.root, "report-writer-workspace"));
  });

  it("refuses the same run twice", async () => {
    await expect(
      writeComparison({ runDirA: ws.withSkill, runDirB: `${ws.withSkill}/`, judge: preferWithSkill() }),
    ).rejects.toThrow(/given twice/);
  });

  it("labels the runs with the rng given when there is no seed", async () => {
    for (const [value, labelA] of [
      [0, ws.withSkill],
      [0.9, ws.withoutSkill],
      [0.2, ws.withSkill],
      [0.7, ws.withoutSkill],
      [0.4, ws.withSkill],
      [0.6, ws.withoutSkill],
    ] as const) {
      const written = await writeComparison({
        runDirA: ws.withSkill,
        runDirB: ws.withoutSkill,
        judge: new RecordingJudge(() => comparisonAnswer("A")),
        rng: () => value,
        analyze: false,
        bothOrders: false,
      });
      expect(written.mapping).toStrictEqual({
        A: labelA,
        B: labelA === ws.withSkill ? ws.withoutSkill : ws.withSkill,
        judge_model: "recording-judge",
        simulated: false,
      });
    }
  });

  it("passes the caller's signal to every judge call", async () => {
    const signal = new AbortController().signal;
    const judge = preferWithSkill();
    const written = await writeComparison({ runDirA: ws.withSkill, runDirB: ws.withoutSkill, judge, signal });
    expect(written.analysisPath).toBeDefined();
    expect(judge.requests).toHaveLength(3);
    for (const request of judge.requests) expect(request.signal).toBe(signal);
  });

  it("counts only files named comparison-<n>.json when it takes the next n", async () => {
    await writeTree(ws.evalDir, {
      "comparison-2.json": "{}",
      "comparison-12.json": "{}",
      "old-comparison-40.json": "{}",
      "comparison-30.json.bak": "{}",
    });
    const written = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge: preferWithSkill(),
      analyze: false,
    });
    expect(written.comparisonPath).toBe(path.join(ws.evalDir, "comparison-13.json"));
  });

  it("refuses to overwrite both analysis files, saying what to do", async () => {
    await writeTree(ws.evalDir, { "analysis.json": "{}", "analysis-1.json": "{}" });
    const judge = preferWithSkill();
    const error = (await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge,
    }).catch((e: unknown) => e)) as SkillgymError;
    expect(error).toBeInstanceOf(SkillgymError);
    expect({ code: error.code, message: error.message, hint: error.hint }).toEqual({
      code: "WORKSPACE",
      message: `${ws.evalDir}: both analysis.json and analysis-1.json exist already`,
      hint: "move the older analysis files away and compare again",
    });
    // Refused before any money is spent: the judge was never asked, and nothing is written.
    expect(judge.requests).toEqual([]);
    expect((await readdir(ws.evalDir)).filter((name) => name.startsWith("comparison-"))).toEqual([]);
  });

  it("looks for a free analysis name by the comparison's next n, and needs none with --no-analyze", async () => {
    await writeTree(ws.evalDir, {
      "comparison-1.json": "{}",
      "analysis.json": "{}",
      "analysis-1.json": "{}",
    });
    const written = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge: preferWithSkill(),
    });
    expect(written.analysisPath).toBe(path.join(ws.evalDir, "analysis-2.json"));
    await writeTree(ws.evalDir, { "analysis-3.json": "{}" });
    const unanalyzed = await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge: preferWithSkill(),
      analyze: false,
    });
    expect(unanalyzed.n).toBe(3);
  });

  it("says the comparison is written when its analysis fails, and counts what both cost", async () => {
    const judge = new RecordingJudge((request) => {
      if (isAnalyzer(request.prompt)) throw new JudgeError("the judge failed: 529 overloaded", true);
      return comparisonAnswer(tokenUnderA(request.prompt) === TOKENS.with_skill ? "A" : "B");
    });
    const error = (await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge,
    }).catch((e: unknown) => e)) as JudgeError;
    const comparisonPath = path.join(ws.evalDir, "comparison-1.json");
    expect(error).toBeInstanceOf(JudgeError);
    expect(error.message).toBe(
      `the judge failed: 529 overloaded (${comparisonPath} is written; its analysis is not)`,
    );
    expect(error.retryable).toBe(true);
    expect(error.costUsd).toBeCloseTo(0.02);
    expect(Comparison.parse(await readJson(comparisonPath)).winner).toBeDefined();
  });
});

describe("writeComparison: a failed analysis", () => {
  it("counts what the analyzer's unusable answer cost on top of both comparisons", async () => {
    let analyzerCalls = 0;
    const judge = new RecordingJudge((request) => {
      if (!isAnalyzer(request.prompt))
        return comparisonAnswer(tokenUnderA(request.prompt) === TOKENS.with_skill ? "A" : "B");
      analyzerCalls++;
      if (analyzerCalls === 1) return "not JSON at all";
      throw new JudgeError("the judge failed: 529 overloaded", true);
    });
    const error = (await writeComparison({
      runDirA: ws.withSkill,
      runDirB: ws.withoutSkill,
      judge,
    }).catch((e: unknown) => e)) as JudgeError;
    expect(error).toBeInstanceOf(JudgeError);
    // Two comparator calls and the analyzer's first answer, $0.01 each; the failed call cost nothing.
    expect(error.costUsd).toBeCloseTo(0.03);
  });
});

describe("defaultOutDir", () => {
  function snapshot(runDir: string, evalDir: string): RunSnapshot {
    return {
      runDir,
      configuration: path.basename(path.dirname(runDir)),
      evalDir,
      outputs: [],
      transcriptTail: "",
      finalMessage: undefined,
      prompt: undefined,
    };
  }

  it("takes the eval folder of two runs of one eval, even two runs of one configuration", () => {
    const evalDir = path.join("/data", "ws", "iteration-1", "eval-1");
    const run = (n: number) => snapshot(path.join(evalDir, "with_skill", `run-${n}`), evalDir);
    expect(defaultOutDir(run(1), run(2))).toBe(evalDir);
  });

  it("takes the closest common folder of runs of different evals", () => {
    const a = snapshot("/data/ws/iteration-1/eval-1/with_skill/run-1", "/data/ws/iteration-1/eval-1");
    const b = snapshot("/data/ws/iteration-2/eval-1/with_skill/run-1", "/data/ws/iteration-2/eval-1");
    expect(defaultOutDir(a, b)).toBe("/data/ws");
    expect(defaultOutDir(b, a)).toBe("/data/ws");
  });

  it("takes the folder of one run when it holds the other", () => {
    const a = snapshot("/data/ws/eval-1/with_skill/run-1", "/data/ws/eval-1");
    const b = snapshot(
      "/data/ws/eval-1/with_skill/run-1/inner/eval-2/with_skill/run-1",
      "/data/ws/inner/eval-2",
    );
    expect(defaultOutDir(a, b)).toBe("/data/ws/eval-1/with_skill/run-1");
  });

  it("asks where to write when relative run folders share nothing", () => {
    const a = snapshot(path.join("one", "eval-1", "with_skill", "run-1"), path.join("one", "eval-1"));
    const b = snapshot(path.join("two", "eval-1", "with_skill", "run-1"), path.join("two", "eval-1"));
    expect(() => defaultOutDir(a, b)).toThrow(/share no folder to write the comparison in/);
  });

  it("asks where to write when the runs share no folder but the root", () => {
    const a = snapshot("/one/eval-1/with_skill/run-1", "/one/eval-1");
    const b = snapshot("/two/eval-1/with_skill/run-1", "/two/eval-1");
    let error: unknown;
    try {
      defaultOutDir(a, b);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SkillgymError);
    const { code, message, hint } = error as SkillgymError;
    expect({ code, message, hint }).toEqual({
      code: "USAGE",
      message: `${a.runDir} and ${b.runDir} share no folder to write the comparison in`,
      hint: "say where with --out <dir>",
    });
  });
});
