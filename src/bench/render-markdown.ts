import type {
  Benchmark,
  BenchmarkRun,
  ConfigurationSummary,
  PerEvalStatistics,
  Stat,
} from "../contracts/benchmark.js";
import { configurations } from "../contracts/benchmark.js";
import { describeInterval, describeRedundancy, describeVerdict, evalLabel, plural } from "./labels.js";

export function escapeCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function row(cells: readonly string[]): string {
  return `| ${cells.map(escapeCell).join(" | ")} |`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [row(header), `|${header.map(() => "---").join("|")}|`, ...rows.map(row)];
}

function showStat(s: Stat | undefined, decimals: number): string {
  if (!s || s.n === 0) return "unknown";
  const range =
    s.min !== undefined && s.max !== undefined
      ? ` (${s.min.toFixed(decimals)}–${s.max.toFixed(decimals)})`
      : "";
  return `${s.mean.toFixed(decimals)} ± ${s.stddev.toFixed(decimals)}${range}`;
}

function graded(runs: readonly BenchmarkRun[]): BenchmarkRun[] {
  return runs.filter((r) => r.error === undefined);
}

function summaryTable(benchmark: Benchmark, shown: readonly string[]): string[] {
  const rows = shown.map((configuration) => {
    const summary = benchmark.run_summary[configuration] as ConfigurationSummary | undefined;
    const all = benchmark.runs.filter((r) => r.configuration === configuration);
    return [
      configuration,
      `${graded(all).length} of ${all.length}`,
      summary ? showStat(summary.pass_rate, 2) : "no graded runs",
      summary ? showStat(summary.time_seconds, 1) : "",
      summary ? showStat(summary.tokens, 0) : "",
    ];
  });
  const delta = benchmark.run_summary.delta;
  if (delta) rows.push(["delta", "", delta.pass_rate, delta.time_seconds, delta.tokens]);
  return table(["Configuration", "Graded runs", "Pass rate", "Time (s)", "Tokens"], rows);
}

function deltaSentence(benchmark: Benchmark): string {
  const baseline = benchmark.metadata.baseline_configuration;
  if (!baseline) return "No baseline configuration was run: no delta.";
  const overall = benchmark.statistics?.delta_pass_rate;
  const head = `**Pass-rate delta (with_skill − ${baseline}):**`;
  if (!overall)
    return `${head} no paired runs to compare (an interval needs at least 2 runs graded in both).`;
  const pairs = typeof overall.pairs === "number" ? `, paired over ${plural(overall.pairs, "run")}` : "";
  const tableDelta = Number(benchmark.run_summary.delta?.pass_rate);
  const differs = Number.isFinite(tableDelta) && Math.abs(tableDelta - overall.estimate) >= 0.005;
  const why = differs
    ? " It pairs runs by eval and run number and weighs each eval equally; the table's delta compares every graded run."
    : "";
  return `${head} ${describeInterval(overall)}${pairs}.${why}`;
}

function verdictLines(benchmark: Benchmark): string[] {
  const stats = benchmark.statistics;
  if (!stats?.verdict) return [];
  const lines = ["", `**Verdict for the skill:** ${describeVerdict(stats.verdict)}.`];
  if (stats.redundant) lines.push("", describeRedundancy(stats.redundant));
  return lines;
}

function meanOf(runs: readonly BenchmarkRun[]): string {
  const rates = graded(runs).map((r) => r.result.pass_rate);
  return rates.length === 0 ? "—" : (rates.reduce((a, b) => a + b, 0) / rates.length).toFixed(2);
}

function perEvalTable(benchmark: Benchmark, shown: readonly string[]): string[] {
  const baseline = benchmark.metadata.baseline_configuration;
  const stats = new Map<string, PerEvalStatistics>(
    (benchmark.statistics?.per_eval ?? []).map((e) => [String(e.eval_id), e]),
  );
  const rows = benchmark.metadata.evals_run.map((id) => {
    const runs = benchmark.runs.filter((r) => String(r.eval_id) === String(id));
    const cells = [
      evalLabel(id, runs[0]?.eval_name),
      ...shown.map((c) => meanOf(runs.filter((r) => r.configuration === c))),
    ];
    if (baseline) {
      const own = stats.get(String(id));
      const d = own?.delta_pass_rate;
      cells.push(d ? describeInterval(d) : "no paired runs to compare");
      cells.push(own?.verdict ? own.verdict.verdict : "—");
    }
    return cells;
  });
  return table(["Eval", ...shown, ...(baseline ? ["Delta", "Verdict"] : [])], rows);
}

/** benchmark.md: what a person reads first; every number comes from the benchmark object. */
export function renderBenchmarkMarkdown(benchmark: Benchmark): string {
  const meta = benchmark.metadata;
  const present = new Set(benchmark.runs.map((r) => r.configuration));
  const shown = configurations.filter((c) => present.has(c));
  const lines = [`# Benchmark: ${meta.skill_name}`, ""];
  if (meta.simulated) {
    lines.push(
      "> **SIMULATED** — these results come from skillgym sim, not a model. They test the eval suite, not the skill.",
      "",
    );
  }
  lines.push(
    `- Model: ${meta.executor_model ?? "unknown"}${meta.simulated ? " (as reported by skillgym sim)" : ""}`,
    `- Judge: ${meta.analyzer_model ?? "none"}`,
    `- Run: ${meta.timestamp}`,
    `- Evals: ${meta.evals_run.length}, runs per configuration: ${meta.runs_per_configuration}${meta.baseline_configuration ? `, baseline: ${meta.baseline_configuration}` : ""}`,
    "",
    "## Summary",
    "",
    ...summaryTable(benchmark, shown),
    "",
    deltaSentence(benchmark),
    ...verdictLines(benchmark),
    "",
    "## Per eval",
    "",
    ...perEvalTable(benchmark, shown),
    "",
  );
  const notes = benchmark.notes ?? [];
  if (notes.length > 0) lines.push("## Notes", "", ...notes.map((n) => `- ${n.replace(/\r?\n/g, " ")}`), "");
  return lines.join("\n");
}
