import { mkdir, readdir } from "node:fs/promises";
import * as path from "node:path";
import type { Analysis } from "../contracts/analysis.js";
import type { Comparison } from "../contracts/comparison.js";
import { SkillgymError } from "../errors.js";
import { type Judge, JudgeError } from "../judge/judge.js";
import { jsonText, writeJson, writeUnderFreeName } from "../runlog/atomic-write.js";
import { analyzeComparison } from "./analyzer.js";
import { type Rng, seededRng } from "./blind.js";
import { compareBothOrders } from "./both-orders.js";
import { compareRuns } from "./comparator.js";
import { type RunSnapshot, readRun } from "./read-run.js";
import { skillSourceOf } from "./skill-source.js";

export interface WriteComparisonOptions {
  runDirA: string;
  runDirB: string;
  judge: Judge;
  /** Default: the eval folder both runs belong to, else their closest common folder. */
  outDir?: string;
  /** The skills behind `runDirA` and `runDirB` (not behind the blind labels); default: what iteration.json says. */
  skillPaths?: { a?: string; b?: string };
  analyze?: boolean;
  /** Makes the labels reproducible; written to the mapping file. */
  seed?: number;
  /** Used when no seed is given; default: crypto randomness. */
  rng?: Rng;
  /** Show the outputs in both orders and call a verdict that follows the order a tie (default true; twice the cost). */
  bothOrders?: boolean;
  signal?: AbortSignal;
}

/** comparison-<n>.mapping.json: the run behind each blind label, kept apart from what the judge saw. */
export interface ComparisonMapping {
  A: string;
  B: string;
  seed?: number;
  judge_model: string;
  simulated: boolean;
}

export interface WrittenComparison {
  n: number;
  comparisonPath: string;
  mappingPath: string;
  analysisPath: string | undefined;
  comparison: Comparison;
  mapping: ComparisonMapping;
  winnerRunDir: string | null;
  analysis: Analysis | undefined;
  /** Why there is no analysis: not asked for, or a tie (nothing to explain). */
  analysisSkipped?: "not requested" | "tie";
  costUsd: number;
  judgeModel: string;
  simulated: boolean;
}

export async function writeComparison(options: WriteComparisonOptions): Promise<WrittenComparison> {
  const analyze = options.analyze ?? true;
  const runA = await readRun(options.runDirA);
  const runB = await readRun(options.runDirB);
  if (runA.runDir === runB.runDir) {
    throw new SkillgymError(
      "BAD_INPUT",
      `${runA.runDir} is given twice; a comparison needs two different runs`,
    );
  }
  // Skill paths are checked before any money is spent on the judge.
  const skills = analyze
    ? ([
        await skillSourceOf(runA, options.skillPaths?.a),
        await skillSourceOf(runB, options.skillPaths?.b),
      ] as const)
    : undefined;
  const outDir = path.resolve(options.outDir ?? defaultOutDir(runA, runB));
  if (skills) await refuseFullAnalysisNames(outDir);
  const rng = options.seed !== undefined ? seededRng(options.seed) : options.rng;
  const compare = (options.bothOrders ?? true) ? compareBothOrders : compareRuns;
  const compared = await compare({
    judge: options.judge,
    runA,
    runB,
    ...(rng ? { rng } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const mapping: ComparisonMapping = {
    ...compared.mapping,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    judge_model: compared.model,
    simulated: compared.simulated,
  };
  await mkdir(outDir, { recursive: true });
  const { n, file: comparisonPath } = await claimNextComparison(outDir, compared.comparison);
  const mappingPath = path.join(outDir, `comparison-${n}.mapping.json`);
  await writeJson(mappingPath, mapping);

  const written = {
    n,
    comparisonPath,
    mappingPath,
    comparison: compared.comparison,
    mapping,
    winnerRunDir: compared.winnerRunDir,
    judgeModel: compared.model,
    simulated: compared.simulated,
  };
  if (!skills || compared.comparison.winner === "TIE") {
    return {
      ...written,
      analysisPath: undefined,
      analysis: undefined,
      analysisSkipped: skills ? "tie" : "not requested",
      costUsd: compared.costUsd,
    };
  }
  const analyzed = await analyzeComparison({
    judge: options.judge,
    result: compared,
    runs: [
      { run: runA, skill: skills[0] },
      { run: runB, skill: skills[1] },
    ],
    ...(options.signal ? { signal: options.signal } : {}),
  }).catch((error: unknown) => {
    if (!(error instanceof JudgeError)) throw error;
    throw new JudgeError(
      `${error.message} (${comparisonPath} is written; its analysis is not)`,
      error.retryable,
      {
        costUsd: compared.costUsd + (error.costUsd ?? 0),
        cause: error,
      },
    );
  });
  const analysisPath = await writeAnalysis(outDir, n, analyzed.analysis);
  return {
    ...written,
    analysisPath,
    analysis: analyzed.analysis,
    costUsd: compared.costUsd + analyzed.costUsd,
  };
}

/** The eval folder both runs belong to, else the closest folder that holds them both. */
export function defaultOutDir(runA: RunSnapshot, runB: RunSnapshot): string {
  if (runA.evalDir === runB.evalDir) return runA.evalDir;
  const a = runA.runDir.split(path.sep);
  const b = runB.runDir.split(path.sep);
  const parted = a.findIndex((part, i) => part !== b[i]);
  const common = a.slice(0, parted < 0 ? a.length : parted).join(path.sep);
  // A common part no longer than the root less its slash ("" on POSIX, "C:" on Windows) is that root, or nothing.
  // Stryker disable next-line Regex: equivalent on POSIX, whose root is the one slash
  const rootLength = path.parse(runA.runDir).root.replace(/[\\/]$/, "").length;
  if (common.length <= rootLength) {
    throw new SkillgymError(
      "USAGE",
      `${runA.runDir} and ${runB.runDir} share no folder to write the comparison in`,
      {
        hint: "say where with --out <dir>",
      },
    );
  }
  return common;
}

// Comparisons written at once never get the same n: each takes the first comparison-<n>.json still free.
async function claimNextComparison(
  outDir: string,
  comparison: Comparison,
): Promise<{ n: number; file: string }> {
  const taken = comparisonNumbers(await readdir(outDir));
  let n = Math.max(0, ...taken);
  function* names(): Generator<string> {
    for (;;) yield path.join(outDir, `comparison-${++n}.json`);
  }
  const file = (await writeUnderFreeName(outDir, jsonText(comparison), names())) as string;
  return { n, file };
}

const analysisNames = (n: number) => ["analysis.json", `analysis-${n}.json`];

function analysisNamesTaken(outDir: string, n: number): SkillgymError {
  return new SkillgymError(
    "WORKSPACE",
    `${outDir}: both analysis.json and analysis-${n}.json exist already`,
    {
      hint: "move the older analysis files away and compare again",
    },
  );
}

// Before any money is spent: the analysis of the comparison about to be written has a free name to go to. (A
// comparison written meanwhile by another process can still take it; writeAnalysis then says so.)
async function refuseFullAnalysisNames(outDir: string): Promise<void> {
  const names = await readdir(outDir).catch(() => [] as string[]);
  const n = Math.max(0, ...comparisonNumbers(names)) + 1;
  if (analysisNames(n).every((name) => names.includes(name))) throw analysisNamesTaken(outDir, n);
}

function comparisonNumbers(names: string[]): number[] {
  return names
    .map((name) => /^comparison-(\d+)\.json$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
}

async function writeAnalysis(outDir: string, n: number, analysis: Analysis): Promise<string> {
  const names = analysisNames(n).map((name) => path.join(outDir, name));
  const file = await writeUnderFreeName(outDir, jsonText(analysis), names);
  if (file) return file;
  throw analysisNamesTaken(outDir, n);
}
