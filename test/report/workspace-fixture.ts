import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Benchmark, BenchmarkRun } from "../../src/contracts/benchmark.js";
import type { GradedExpectation, Grading } from "../../src/contracts/grading.js";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";

export async function tempDir(
  prefix = "skillgym-report-",
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  await Promise.all(
    Object.entries(files).map(async ([path, content]) => {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content);
    }),
  );
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export interface FakeIteration {
  evals: number;
  runsPerConfiguration: number;
  assertions?: number;
  /** Files in every run's outputs/, by path. */
  outputs?: (evalIndex: number, configuration: string, run: number) => Record<string, string | Buffer>;
  evidence?: (evalIndex: number, assertion: number) => string;
  prompt?: (evalIndex: number) => string;
  triggers?: TriggerResults;
  notes?: string[];
  /** Replaces the generated expectations of a run (and so its pass rate). */
  expectations?: (evalIndex: number, configuration: string, run: number) => GradedExpectation[];
  transcript?: (evalIndex: number, configuration: string, run: number) => string;
}

const configurations = ["with_skill", "without_skill"] as const;

// Deterministic: with the skill every assertion passes; without it, only the even ones.
function passes(configuration: string, assertion: number): boolean {
  return configuration === "with_skill" || assertion % 2 === 0;
}

/** Writes one iteration folder the way `skillgym run` lays it out, from plain values. */
export async function writeFakeIteration(dir: string, spec: FakeIteration): Promise<void> {
  const assertions = spec.assertions ?? 4;
  const files: Record<string, string | Buffer> = {};
  const runs: BenchmarkRun[] = [];
  const evalIds: string[] = [];
  files["iteration.json"] = json({
    skill_name: "demo-skill",
    skill_path: "/skills/demo-skill",
    skill_hash: "0".repeat(64),
    status: "complete",
    started_at: "2026-01-01T00:00:00.000Z",
    finished_at: "2026-01-01T00:10:00.000Z",
    plan: {
      evals: Array.from({ length: spec.evals }, (_, i) => `e${i + 1}`),
      configurations: [...configurations],
      runs_per_configuration: spec.runsPerConfiguration,
    },
  });
  for (let e = 0; e < spec.evals; e++) {
    const id = `e${e + 1}`;
    evalIds.push(id);
    const texts = Array.from({ length: assertions }, (_, a) => `assertion ${a + 1} of eval ${id}`);
    files[`eval-${id}/eval_metadata.json`] = json({
      eval_id: id,
      eval_name: `eval-${id}`,
      prompt: spec.prompt?.(e) ?? `Do task ${id}`,
      assertions: texts,
    });
    for (const configuration of configurations) {
      for (let r = 1; r <= spec.runsPerConfiguration; r++) {
        const runDir = `eval-${id}/${configuration}/run-${r}`;
        const expectations =
          spec.expectations?.(e, configuration, r) ??
          texts.map((text, a) => ({
            text,
            passed: passes(configuration, a),
            evidence: spec.evidence?.(e, a) ?? `evidence for ${text}`,
          }));
        const passed = expectations.filter((x) => x.passed).length;
        const total = expectations.length;
        const grading: Grading = {
          expectations,
          summary: { passed, failed: total - passed, total, pass_rate: passed / total },
        };
        files[`${runDir}/grading.json`] = json(grading);
        files[`${runDir}/timing.json`] = json({
          total_tokens: 1000 + r,
          total_duration_seconds: 2.5,
          outcome: "success",
          attempts: 1,
        });
        files[`${runDir}/transcript.md`] =
          spec.transcript?.(e, configuration, r) ?? `# transcript of ${runDir}\n`;
        const outputs = spec.outputs?.(e, configuration, r) ?? {
          "result.md": `# Result ${id} ${configuration} ${r}\n`,
        };
        for (const [path, content] of Object.entries(outputs)) files[`${runDir}/outputs/${path}`] = content;
        runs.push({
          eval_id: id,
          eval_name: `eval-${id}`,
          configuration,
          run_number: r,
          result: { pass_rate: passed / total, passed, failed: total - passed, total },
          expectations,
        });
      }
    }
  }
  const mean = (c: string) => {
    const rates = runs.filter((r) => r.configuration === c).map((r) => r.result.pass_rate);
    return rates.reduce((s, x) => s + x, 0) / Math.max(1, rates.length);
  };
  const stat = (m: number) => ({ mean: m, stddev: 0 });
  const benchmark: Benchmark = {
    metadata: {
      skill_name: "demo-skill",
      timestamp: "2026-01-01T00:00:00.000Z",
      evals_run: evalIds,
      runs_per_configuration: spec.runsPerConfiguration,
      baseline_configuration: "without_skill",
    },
    runs,
    run_summary: {
      with_skill: { pass_rate: stat(mean("with_skill")), time_seconds: stat(2.5), tokens: stat(1000) },
      without_skill: { pass_rate: stat(mean("without_skill")), time_seconds: stat(2.5), tokens: stat(1000) },
      delta: {
        pass_rate: `+${(mean("with_skill") - mean("without_skill")).toFixed(2)}`,
        time_seconds: "+0.0",
        tokens: "+0",
      },
    },
    notes: spec.notes ?? ["a note"],
  };
  files["benchmark.json"] = json(benchmark);
  if (spec.triggers) files["triggers/trigger-results.json"] = json(spec.triggers);
  await writeFiles(dir, files);
}

// The root iteration.json of `run --agent claude-code,codex` over one eval.
export const twoAgentsRecord = {
  skill_name: "demo-skill",
  skill_path: "/skills/demo-skill",
  skill_hash: "0".repeat(64),
  status: "complete",
  started_at: "2026-01-01T00:00:00.000Z",
  agents: ["claude-code", "codex"],
  request: {
    evals: ["e1"],
    runs_per_configuration: 1,
    baseline: "without_skill",
    trigger_queries: 0,
    trigger_runs: 1,
  },
};
