import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { Benchmark } from "../contracts/benchmark.js";
import { EvalMetadata } from "../contracts/evals.js";
import { Grading } from "../contracts/grading.js";
import { RunStatus } from "../contracts/run-record.js";
import { TriggerResults } from "../contracts/trigger-results.js";
import { readJsonIfPresent } from "../run/write-json.js";

export interface ReportRun {
  evalDir: string;
  configuration: string;
  runNumber: number;
  grading?: Grading;
  status?: RunStatus;
}

export interface ReportEval {
  dir: string;
  metadata?: EvalMetadata;
  runs: ReportRun[];
}

export interface IterationView {
  dir: string;
  benchmark?: Benchmark;
  triggers?: TriggerResults;
  evals: ReportEval[];
}

async function listDirs(dir: string, pattern: RegExp): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && pattern.test(e.name))
      .map((e) => e.name)
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  } catch {
    return [];
  }
}

async function parsed<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  file: string,
) {
  const result = schema.safeParse(await readJsonIfPresent(file));
  return result.success ? result.data : undefined;
}

/** Everything a report shows about one iteration, read from its files; missing or broken files are left out. */
export async function readIterationView(dir: string): Promise<IterationView> {
  const evals: ReportEval[] = [];
  for (const evalDir of await listDirs(dir, /^eval-/)) {
    const runs: ReportRun[] = [];
    for (const configuration of await listDirs(
      join(dir, evalDir),
      /^(with_skill|without_skill|old_skill)$/,
    )) {
      for (const run of await listDirs(join(dir, evalDir, configuration), /^run-\d+$/)) {
        const runDir = join(dir, evalDir, configuration, run);
        const grading = await parsed(Grading, join(runDir, "grading.json"));
        const status = await parsed(RunStatus, join(runDir, "timing.json"));
        runs.push({
          evalDir,
          configuration,
          runNumber: Number(run.slice(4)),
          ...(grading ? { grading } : {}),
          ...(status ? { status } : {}),
        });
      }
    }
    const metadata = await parsed(EvalMetadata, join(dir, evalDir, "eval_metadata.json"));
    evals.push({ dir: evalDir, ...(metadata ? { metadata } : {}), runs });
  }
  const benchmark = await parsed(Benchmark, join(dir, "benchmark.json"));
  const triggers = await parsed(TriggerResults, join(dir, "triggers", "trigger-results.json"));
  return { dir, ...(benchmark ? { benchmark } : {}), ...(triggers ? { triggers } : {}), evals };
}
