import type { Benchmark, BenchmarkRun } from "../contracts/benchmark.js";
import type { EvalId } from "../contracts/evals.js";
import type {
  AssertionRow,
  BenchmarkView,
  ConfigurationCell,
  EvalAssertions,
  EvalRow,
} from "./view-model.js";

const configurationOrder = ["with_skill", "old_skill", "without_skill"];

function orderConfigurations(names: Iterable<string>): string[] {
  const rank = (c: string) => {
    const i = configurationOrder.indexOf(c);
    return i === -1 ? configurationOrder.length : i;
  };
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function groupByEval(runs: BenchmarkRun[]): Map<string, BenchmarkRun[]> {
  const groups = new Map<string, BenchmarkRun[]>();
  for (const run of runs) {
    const key = String(run.eval_id);
    const group = groups.get(key);
    if (group) group.push(run);
    else groups.set(key, [run]);
  }
  return groups;
}

function cellOf(runs: BenchmarkRun[]): ConfigurationCell {
  const graded = runs.filter((r) => !r.error);
  const mean = graded.length ? graded.reduce((sum, r) => sum + r.result.pass_rate, 0) / graded.length : null;
  return { pass_rate: mean, graded: graded.length, errors: runs.length - graded.length };
}

function assertionRows(runs: BenchmarkRun[], configurations: string[]): AssertionRow[] {
  const maxRun = Math.max(1, ...runs.map((r) => r.run_number));
  const rows = new Map<string, Record<string, string[]>>();
  for (const run of runs) {
    for (const expectation of run.expectations ?? []) {
      let row = rows.get(expectation.text);
      if (!row) {
        row = Object.fromEntries(configurations.map((c) => [c, Array<string>(maxRun).fill("-")]));
        rows.set(expectation.text, row);
      }
      const cells = row[run.configuration];
      if (cells) cells[run.run_number - 1] = expectation.passed ? "1" : "0";
    }
  }
  return [...rows].map(([text, cells]) => ({
    text,
    cells: Object.fromEntries(Object.entries(cells).map(([c, chars]) => [c, chars.join("")])),
  }));
}

/** What the Benchmark tab shows, summarised from benchmark.json so that thousands of runs stay a small answer. */
export function summariseBenchmark(benchmark: Benchmark): BenchmarkView {
  const configurations = orderConfigurations(benchmark.runs.map((r) => r.configuration));
  const perEval = new Map(
    (benchmark.statistics?.per_eval ?? []).map((stats) => [String(stats.eval_id), stats] as const),
  );
  const groups = groupByEval(benchmark.runs);
  const evalIds: EvalId[] = [...benchmark.metadata.evals_run];
  for (const run of benchmark.runs)
    if (!evalIds.some((id) => String(id) === String(run.eval_id))) evalIds.push(run.eval_id);
  const evals: EvalRow[] = [];
  const grid: EvalAssertions[] = [];
  for (const evalId of evalIds) {
    const runs = groups.get(String(evalId)) ?? [];
    if (runs.length === 0) continue;
    const stats = perEval.get(String(evalId));
    const evalName = runs[0]?.eval_name ?? stats?.eval_name ?? `eval-${evalId}`;
    evals.push({
      eval_id: evalId,
      eval_name: evalName,
      configurations: Object.fromEntries(
        configurations.map((c) => [c, cellOf(runs.filter((r) => r.configuration === c))]),
      ),
      delta_pass_rate: stats?.delta_pass_rate ?? null,
      flaky: stats?.flaky === true,
      verdict: stats?.verdict ?? null,
    });
    grid.push({ eval_id: evalId, eval_name: evalName, assertions: assertionRows(runs, configurations) });
  }
  return {
    metadata: benchmark.metadata,
    run_summary: benchmark.run_summary,
    configurations,
    delta_pass_rate: benchmark.statistics?.delta_pass_rate ?? null,
    method: benchmark.statistics?.method ?? null,
    verdict: benchmark.statistics?.verdict ?? null,
    redundant: benchmark.statistics?.redundant ?? null,
    evals,
    grid,
    notes: benchmark.notes ?? [],
  };
}
