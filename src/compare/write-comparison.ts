import { link, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { Analysis } from "../contracts/analysis.js";
import type { Comparison } from "../contracts/comparison.js";
import { SkillgymError } from "../errors.js";
import type { Judge } from "../judge/judge.js";
import { writeJson } from "../run/write-json.js";
import { analyzeComparison } from "./analyzer.js";
import { type Rng, seededRng } from "./blind.js";
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
  const rng = options.seed !== undefined ? seededRng(options.seed) : options.rng;
  const compared = await compareRuns({
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
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  const common = a.slice(0, shared).join(path.sep);
  if (shared === 0 || common === "" || common === path.parse(runA.runDir).root.replace(/[\\/]$/, "")) {
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

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

// The file is written aside and hard-linked into place: the link fails if the name is taken, so two
// comparisons writing at once never get the same n, and no one ever sees half a file.
async function claimNextComparison(
  outDir: string,
  comparison: Comparison,
): Promise<{ n: number; file: string }> {
  const taken = (await readdir(outDir))
    .map((name) => /^comparison-(\d+)\.json$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  let n = Math.max(0, ...taken) + 1;
  const temp = path.join(outDir, `.comparison.${process.pid}.${Date.now()}.tmp`);
  await writeFile(temp, json(comparison), "utf8");
  try {
    for (;;) {
      const file = path.join(outDir, `comparison-${n}.json`);
      if (await linkIfFree(temp, file)) return { n, file };
      n++;
    }
  } finally {
    await rm(temp, { force: true });
  }
}

async function writeAnalysis(outDir: string, n: number, analysis: Analysis): Promise<string> {
  const temp = path.join(outDir, `.analysis.${process.pid}.${Date.now()}.tmp`);
  await writeFile(temp, json(analysis), "utf8");
  try {
    for (const name of ["analysis.json", `analysis-${n}.json`]) {
      const file = path.join(outDir, name);
      if (await linkIfFree(temp, file)) return file;
    }
    throw new SkillgymError(
      "WORKSPACE",
      `${outDir}: both analysis.json and analysis-${n}.json exist already`,
      {
        hint: "move the older analysis files away and compare again",
      },
    );
  } finally {
    await rm(temp, { force: true });
  }
}

async function linkIfFree(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
