import type { Activation } from "../contracts/activation.js";
import type {
  BenchmarkMetadata,
  DeltaEstimate,
  DisclosureCoverage,
  EffectVerdict,
  Redundancy,
  RunSummary,
} from "../contracts/benchmark.js";
import type { CatalogResults } from "../contracts/catalog.js";
import type { GradeMark } from "../contracts/feedback.js";
import type { GradedExpectation, Grading } from "../contracts/grading.js";
import type { JudgesReport } from "../contracts/judges.js";
import type { AgentMatrix } from "../contracts/matrix.js";
import type { Metrics } from "../contracts/metrics.js";
import type { Timing } from "../contracts/timing.js";
import type { TriggerResults } from "../contracts/trigger-results.js";

// What the viewer's page receives, from the server's /api routes or embedded in a static file: one shape for both.

/** An iteration's row of history.json (written by `run`), as "over time" plots it. */
export interface HistoryPoint {
  version: string;
  parent: string | null;
  /** with_skill minus baseline and its 95% interval; null without a baseline. */
  delta: { estimate: number; ci_low: number; ci_high: number } | null;
  verdict: string | null;
  redundant: boolean;
  effect_floor: number | null;
  /** Against the parent: improved, regressed, unchanged or inconclusive; null on a part's first row. */
  change: string | null;
  regressed_evals: number | null;
}

/** One iteration in the "over time" list: enough to plot, without reading any run. */
export interface IterationSummary {
  number: number;
  name: string;
  status: string | null;
  started_at: string | null;
  simulated: boolean;
  runs: number;
  baseline_configuration: string | null;
  with_skill_pass_rate: number | null;
  baseline_pass_rate: number | null;
  delta_pass_rate: DeltaEstimate | null;
  trigger_accuracy: number | null;
  trigger_f1: number | null;
  feedback_status: string | null;
  /** Its row of the workspace's history.json; null when there is none (older workspaces, or several parts). */
  history: HistoryPoint | null;
  /** An iteration that ran several agents: each agent's own figures (the fields above are then empty). */
  agents?: Record<string, IterationSummary>;
}

export interface WorkspaceView {
  skill_name: string | null;
  /** The folder given to `skillgym view`. */
  path: string;
  /** Iterations this view shows (one when an iteration folder was given). */
  shown: number[];
  /** Every iteration of the workspace, oldest first, for "over time". */
  iterations: IterationSummary[];
}

export interface RunEntry {
  /** The run folder under the iteration: `eval-<id>/<configuration>/run-<k>`. */
  id: string;
  /** feedback.json's key: `id` with `/` replaced by `-`. */
  run_id: string;
  eval_dir: string;
  eval_id: string | number | null;
  eval_name: string;
  configuration: string;
  run_number: number;
  pass_rate: number | null;
  passed: number | null;
  total: number | null;
  /** Why the run produced no result, if it did not. */
  error: string | null;
}

export interface ConfigurationCell {
  pass_rate: number | null;
  graded: number;
  errors: number;
}

export interface EvalRow {
  eval_id: string | number;
  eval_name: string;
  configurations: Record<string, ConfigurationCell>;
  delta_pass_rate: DeltaEstimate | null;
  flaky: boolean;
  verdict: EffectVerdict | null;
}

/** One assertion's results: per configuration, one character per run number ("1" pass, "0" fail, "-" none). */
export interface AssertionRow {
  text: string;
  cells: Record<string, string>;
}

export interface EvalAssertions {
  eval_id: string | number;
  eval_name: string;
  assertions: AssertionRow[];
}

export interface BenchmarkView {
  metadata: BenchmarkMetadata;
  run_summary: RunSummary;
  configurations: string[];
  delta_pass_rate: DeltaEstimate | null;
  method: string | null;
  /** The skill's verdict at the effect floor, and whether it is redundant on this model. */
  verdict: EffectVerdict | null;
  redundant: Redundancy | null;
  evals: EvalRow[];
  grid: EvalAssertions[];
  notes: string[];
}

export interface FeedbackView {
  reviews: Record<string, { feedback: string; timestamp: string; grades?: GradeMark[] }>;
  status: string | null;
  /** Set when feedback.json exists but cannot be read; the page then refuses to overwrite it. */
  problem: string | null;
}

export interface IterationDetail {
  number: number;
  name: string;
  status: string | null;
  simulated: boolean;
  /** Whether the runs were inside the OS sandbox (`--sandbox`); null when the iteration does not say. */
  sandbox: boolean | null;
  /** Simulated without a sim script: the runs only loaded the skill, so their figures mean nothing. */
  no_sim_script?: boolean;
  /** A `merge --partial`: what the merged shards lacked, in one sentence. */
  partial?: string;
  runs: RunEntry[];
  benchmark: BenchmarkView | null;
  triggers: TriggerResults | null;
  /** Trigger runs the result store served, per query number (`query-<n>`); absent when it served none. */
  trigger_reused?: Record<string, number>;
  feedback: FeedbackView;
  /** judges.json, when `skillgym judges` checked this iteration's judges. */
  judges?: JudgesReport | null;
  /** An iteration that ran several agents: their names; the runs above are `agent`'s. */
  agents?: string[];
  agent?: string;
  matrix?: AgentMatrix | null;
}

export type OutputKind = "markdown" | "json" | "code" | "text" | "image" | "binary";

/** An output file as the viewer shows it. */
export interface OutputView {
  /** Path under the run's outputs/ folder. */
  path: string;
  size: number;
  kind: OutputKind;
  /** The content, for text kinds, up to a limit. */
  text?: string;
  truncated?: boolean;
  /** Where to fetch it (an /api/file URL, or a data: URL in a static file); absent when too big to embed. */
  url?: string;
}

export interface PreviousRun {
  iteration: number;
  id: string;
  outputs: OutputView[];
  pass_rate: number | null;
}

/** A judge's PASS about a file that a check of the same run showed does not exist. */
export interface Contradiction {
  /** Index of the judge's expectation in `grading.expectations`. */
  expectation: number;
  /** Index of the failed check. */
  check: number;
  /** The missing file, as the check names it. */
  file: string;
  /** The check's evidence, e.g. "invoice.txt does not exist". */
  reason: string;
}

/** A run's transcript.md, embedded up to a limit. */
export interface TranscriptView {
  text: string;
  /** The whole file's size in bytes. */
  size: number;
  /** True when only the first part of the file is in `text`. */
  truncated: boolean;
}

export interface RunDetail {
  iteration: number;
  id: string;
  run_id: string;
  eval_id: string | number | null;
  eval_name: string;
  configuration: string;
  run_number: number;
  prompt: string | null;
  outcome: string | null;
  error: string | null;
  outputs: OutputView[];
  /** Files left out because the folder held too many. */
  outputs_omitted: number;
  grading:
    | (Pick<Grading, "summary" | "claims" | "eval_feedback" | "user_notes_summary"> & {
        expectations: GradedExpectation[];
        contradictions: Contradiction[];
      })
    | null;
  timing: Timing | null;
  metrics: Metrics | null;
  transcript: TranscriptView | null;
  /** Where to download transcript.md; null in a static file, which embeds it instead. */
  transcript_url: string | null;
  previous: PreviousRun | null;
  /** activation.json: what the run did with the skill; null for a run written before it existed. */
  activation: Activation | null;
  /** benchmark.json's disclosure coverage of this eval and configuration, when benchmarked. */
  disclosure: DisclosureCoverage | null;
}

export interface TuneDimensions {
  clarity: number;
  completeness: number;
  correctness: number;
  effectiveness: number;
  efficiency: number;
}

/** One round of a tune: the version it measured and how that version scored. */
export interface TuneIterationView {
  round: number;
  version: string;
  status: string;
  /** The 0–100 composite; null until evaluated. */
  score: number | null;
  expectation_pass_rate: number | null;
  dimensions: TuneDimensions | null;
  grading_result: string | null;
}

/** One `tune-<timestamp>/` folder of the workspace. */
export interface TuneRunView {
  name: string;
  target_skills: string[];
  status: string | null;
  termination_reason: string | null;
  current_best: string | null;
  best_score: number | null;
  quality_threshold: number | null;
  iterations: TuneIterationView[];
  final_report: string | null;
  /** Files that could not be read, each naming the file and the place. */
  problems: string[];
}

export interface TunesView {
  /** False when the view was given one iteration folder: tunes are not looked for. */
  workspace: boolean;
  tunes: TuneRunView[];
}

/** Everything a static file embeds; the page reads it instead of calling the /api routes. */
/** One `catalog-<N>/` folder of the workspace: its catalog.json, or why it cannot be shown. */
export interface CatalogEntry {
  number: number;
  name: string;
  results: CatalogResults | null;
  problem: string | null;
  /** In a static file: each run's transcript.md by its folder (catalog.json's `dir`); the server serves them apart. */
  transcripts?: Record<string, TranscriptView | null>;
}

export interface CatalogsView {
  catalogs: CatalogEntry[];
}

export interface StaticViewData {
  /** Keys this file's feedback in the browser's localStorage. */
  key: string;
  workspace: WorkspaceView;
  iterations: Record<string, IterationDetail>;
  /** Keyed by `<iteration>:<run id>`. */
  runs: Record<string, RunDetail>;
  tunes: TunesView;
  catalogs: CatalogsView;
}
