import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One run folder: which assertions passed, and what timing.json says. */
export interface FixtureRun {
  eval: number | string;
  configuration: "with_skill" | "without_skill" | "old_skill";
  run: number;
  /** Assertion text → passed; omitted when `grading` is given or the run is ungraded. */
  results?: Record<string, boolean>;
  /** Raw grading.json content (object or text); `null` writes no grading.json. */
  grading?: unknown;
  seconds?: number;
  tokens?: number;
  outcome?: string;
  error?: string;
  simulated?: boolean;
  model?: string;
  /** Raw timing.json content replacing the generated one; `null` writes none. */
  timing?: unknown;
  toolCalls?: number;
}

export interface FixtureIteration {
  /** iteration.json; `null` writes none. */
  record?: unknown;
  evals: { id: number | string; name?: string; assertions?: string[] }[];
  runs: FixtureRun[];
}

export function grading(results: Record<string, boolean>) {
  const expectations = Object.entries(results).map(([text, passed]) => ({
    text,
    passed,
    evidence: passed ? `found: ${text}` : `not found: ${text}`,
  }));
  const passed = expectations.filter((e) => e.passed).length;
  const total = expectations.length;
  return {
    expectations,
    summary: { passed, failed: total - passed, total, pass_rate: total === 0 ? 0 : passed / total },
  };
}

export function iterationRecord(overrides: Record<string, unknown> = {}) {
  return {
    skill_name: "demo",
    skill_path: "/skills/demo",
    skill_hash: "abc123",
    status: "complete",
    started_at: "2026-01-15T10:30:00Z",
    finished_at: "2026-01-15T10:40:00Z",
    simulated: false,
    plan: { evals: [1, 2], configurations: ["with_skill", "without_skill"], runs_per_configuration: 2 },
    ...overrides,
  };
}

async function writeValue(file: string, value: unknown): Promise<void> {
  if (value === null || value === undefined) return;
  await writeFile(file, typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`, "utf8");
}

export interface TempIteration {
  dir: string;
  cleanup: () => Promise<void>;
}

/** Writes `<tmp>/demo-workspace/iteration-1/` from the object literals, as `skillgym eval` would. */
export async function makeIteration(fixture: FixtureIteration): Promise<TempIteration> {
  const root = await mkdtemp(join(tmpdir(), "skillgym-bench-"));
  const dir = join(root, "demo-workspace", "iteration-1");
  await writeIteration(dir, fixture);
  return { dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Writes an iteration folder at `dir` from the object literals, as `skillgym eval` would. */
export async function writeIteration(dir: string, fixture: FixtureIteration): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeValue(
    join(dir, "iteration.json"),
    fixture.record === undefined ? iterationRecord() : fixture.record,
  );
  for (const e of fixture.evals) {
    await mkdir(join(dir, `eval-${e.id}`), { recursive: true });
    await writeValue(join(dir, `eval-${e.id}`, "eval_metadata.json"), {
      eval_id: e.id,
      eval_name: e.name ?? `eval-${e.id}`,
      prompt: `do task ${e.id}`,
      assertions: e.assertions ?? [],
    });
  }
  for (const r of fixture.runs) {
    const runDir = join(dir, `eval-${r.eval}`, r.configuration, `run-${r.run}`);
    await mkdir(join(runDir, "outputs"), { recursive: true });
    const gradingValue = r.grading !== undefined ? r.grading : r.results ? grading(r.results) : null;
    await writeValue(join(runDir, "grading.json"), gradingValue);
    const seconds = r.seconds ?? 10;
    const timing =
      r.timing !== undefined
        ? r.timing
        : {
            total_tokens: r.tokens ?? 1000,
            duration_ms: seconds * 1000,
            total_duration_seconds: seconds,
            executor_duration_seconds: seconds,
            ...(r.model ? { model: r.model } : {}),
            outcome: r.outcome ?? "success",
            ...(r.error ? { error: r.error } : {}),
            attempts: 1,
            simulated: r.simulated ?? false,
          };
    await writeValue(join(runDir, "timing.json"), timing);
    await writeValue(join(runDir, "outputs", "metrics.json"), {
      tool_calls: { Read: r.toolCalls ?? 3 },
      total_tool_calls: r.toolCalls ?? 3,
      total_steps: 2,
      files_created: [],
      errors_encountered: 0,
      output_chars: 10,
      transcript_chars: 100,
    });
  }
}
