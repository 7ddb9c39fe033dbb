import { describe, expect, it } from "vitest";
import { type OptimizeIteration, OptimizeResults } from "../../src/contracts/optimize-results.js";
import { renderOptimizeReport } from "../../src/optimize/index.js";

// The optimizer's page, line by line: the summary, the rows of iterations of every kind, the chart and the
// per-query tables.
const query = (q: string, should_trigger: boolean) => ({ query: q, should_trigger });
const result = (q: string, triggers: number, runs: number, errors: number, pass: boolean | null) => ({
  query: q,
  should_trigger: true,
  trigger_rate: runs - errors > 0 ? triggers / (runs - errors) : 0,
  triggers,
  runs,
  errors,
  pass,
});
const side = (score: number | null, passed: number, total: number, results: ReturnType<typeof result>[]) => ({
  score,
  summary: {
    total,
    passed,
    failed: total - passed,
    errors: 0,
    precision: null,
    recall: null,
    f1: null,
    accuracy: score,
  },
  results,
});

const train0 = side(0.5, 1, 2, [result("alpha", 1, 1, 0, true), result("beta", 0, 1, 0, false)]);
const test0 = side(0, 0, 1, [result("gamma", 0, 2, 2, null)]);

const iterations: OptimizeIteration[] = [
  {
    iteration: 0,
    description: "Formats documents.",
    status: "complete",
    train: train0,
    test: test0,
    trigger_runs: 3,
    reused_runs: 3,
    cost_usd: 0.5,
    replay: { train_runs: 2, decided_by_replay: 1, captured: true },
  },
  {
    iteration: 1,
    description: "Formats documents.",
    status: "improver_failed",
    improver: {
      model: "m",
      asks: 2,
      cost_usd: 0.25,
      problems: ["it was empty", "it contains < or >"],
      error: "no usable description",
    },
    train: null,
    test: null,
    trigger_runs: 0,
    cost_usd: 0.25,
  },
  {
    iteration: 2,
    description: "Formats documents.",
    status: "complete",
    repeat_of: 0,
    train: train0,
    test: test0,
    trigger_runs: 0,
    cost_usd: 0,
  },
  {
    iteration: 3,
    description: "Writes notes.",
    status: "interrupted",
    train: side(null, 0, 0, []),
    test: null,
    trigger_runs: 1,
    cost_usd: 0.125,
  },
];

function results(overrides: Partial<OptimizeResults> = {}): OptimizeResults {
  return OptimizeResults.parse({
    skill_name: "scribe",
    skill_path: "/s/scribe",
    status: "interrupted",
    started_at: "2025-01-31T14:25:02.000Z",
    resumed_at: ["2025-01-31T15:00:00.000Z", "2025-01-31T16:00:00.000Z"],
    simulated: false,
    settings: {
      max_iterations: 5,
      holdout: 0.4,
      runs_per_query: 1,
      threshold: 0.5,
      seed: 42,
      patience: 2,
      improver_backend: "anthropic",
      improver_model: "m",
    },
    score_metric: "accuracy over runs",
    split: { train: [query("alpha", true), query("beta", true)], test: [query("gamma", true)] },
    estimate: { trigger_runs: 12, improver_calls: 5, cost_usd: 2.5 },
    original_description: "Formats documents.",
    best_description: "Formats documents.",
    best_iteration: 0,
    final_description: "Writes notes.",
    exit_reason: "error",
    error: "disk full",
    iterations,
    test_gain: {
      original: 0,
      best: 0,
      gain: 0,
      ci_low: 0,
      ci_high: 0,
      confidence: 0.95,
      beyond_noise: false,
      note: "+0.00 on test: no gain",
    },
    cost_usd: 0.875,
    screen: { kind: "replay", asked: false },
    ...overrides,
  });
}

describe("the optimizer's page", () => {
  it("sums up a stopped, resumed optimization", () => {
    const html = renderOptimizeReport(results());
    expect(html).not.toContain("SIMULATED");
    expect(html).not.toContain("http-equiv");
    expect(html).toContain(
      "<p>Status: <b>interrupted</b>; stopped because: an error stopped it (disk full).\n" +
        "Resumed 2× (last 2025-01-31T16:00:00.000Z). Cost $0.8750 (estimated at most $2.50 for 12 trigger runs).</p>",
    );
    expect(html).toContain(
      "Train 2 queries, test 1 (held out: the improver never sees them).\n" +
        "Train runs screened by replay (the agent's captured first request with each query; the agent made the runs it left open); test runs are the agent's.</p>",
    );
    expect(html).toContain("<p>Best vs original on test: <b>+0.00 on test: no gain</b></p>");
    expect(html).toContain(
      '<tr><th>best (iteration 0)</th><td class="desc">Formats documents.</td></tr>\n' +
        '<tr><th>final</th><td class="desc">Writes notes.</td></tr></table>',
    );
  });

  it("gives each iteration a row: scores, cost and what happened", () => {
    const html = renderOptimizeReport(results());
    expect(html).toContain(
      '<tr class="best"><td>0 ★</td>\n<td class="desc">Formats documents.</td>' +
        '<td>50% <span class="muted">(1/2)</span></td><td>0% <span class="muted">(0/1)</span></td>\n' +
        "<td>$0.5000</td><td>the original description: the starting point · 3 runs reused by --resume · " +
        "replay decided 1 of 2 train runs</td></tr>",
    );
    expect(html).toContain(
      '<tr class=""><td>1</td>\n<td class="desc">Formats documents.</td><td>—</td><td>—</td>\n' +
        "<td>$0.2500</td><td>re-asked: it was empty; it contains &lt; or &gt; · no usable description</td></tr>",
    );
    expect(html).toContain(
      '<tr class=""><td>2</td>\n<td class="desc">Formats documents.</td>' +
        '<td>50% <span class="muted">(1/2)</span></td><td>0% <span class="muted">(0/1)</span></td>\n' +
        "<td>$0.0000</td><td>repeats iteration 0; not run again</td></tr>",
    );
    expect(html).toContain(
      '<tr class=""><td>3</td>\n<td class="desc">Writes notes.</td>' +
        '<td>— <span class="muted">(0/0)</span></td><td>—</td>\n<td>$0.1250</td><td>interrupted</td></tr>',
    );
  });

  it("draws the scores of the evaluated iterations", () => {
    const html = renderOptimizeReport(results());
    // Four iterations across 380 px: x = 20 + i/3 × 380; y = 140 − score × 120.
    expect(html).toContain('stroke-dasharray="4 3" stroke-width="2" points="20.0,80.0 273.3,80.0"/>');
    expect(html).toContain('stroke="#2a7" stroke-width="2" points="20.0,140.0 273.3,140.0"/>');
  });

  it("draws one iteration at the left edge", () => {
    const html = renderOptimizeReport(results({ iterations: [iterations[0]!], best_iteration: 0 }));
    expect(html).toContain('points="20.0,80.0"/>');
  });

  it("shows each query's triggered runs per iteration, marking errors and missing results", () => {
    const html = renderOptimizeReport(results());
    expect(html).toContain(
      "<table><tr><th>train query</th><th>should trigger</th><th>0</th><th>1</th><th>2</th><th>3</th></tr>" +
        '<tr><td>alpha</td><td>yes</td><td class="pass">1/1</td><td>—</td><td class="pass">1/1</td><td>—</td></tr>\n' +
        '<tr><td>beta</td><td>yes</td><td class="fail">0/1</td><td>—</td><td class="fail">0/1</td><td>—</td></tr></table>',
    );
    expect(html).toContain(
      "<table><tr><th>test query</th><th>should trigger</th><th>0</th><th>1</th><th>2</th><th>3</th></tr>" +
        '<tr><td>gamma</td><td>yes</td><td class="err">error</td><td>—</td><td class="err">error</td><td>—</td></tr></table>',
    );
  });

  it("says why replay was off, and names no best iteration when none has a test score", () => {
    const off = renderOptimizeReport(
      results({
        screen: { kind: "none", asked: false, off: "word has no replay yet" },
        best_iteration: null,
      }),
    );
    expect(off).toContain("Replay off (word has no replay yet): the agent made every run.</p>");
    expect(off).toContain('<tr><th>best</th><td class="desc">');
    const none = renderOptimizeReport(results({ screen: { kind: "none", asked: true } }));
    expect(none).toContain("Replay off (--screen none): the agent made every run.</p>");
  });

  it("leaves out what did not happen", () => {
    const { resumed_at: _r, error: _e, screen: _s, ...rest } = results({ test_gain: null });
    const html = renderOptimizeReport(
      OptimizeResults.parse({ ...rest, status: "complete", exit_reason: "budget" }),
    );
    expect(html).toContain(
      "<p>Status: <b>complete</b>; stopped because: the next iteration would cross --max-cost.\n" +
        "Cost $0.8750",
    );
    expect(html).toContain("(held out: the improver never sees them).\n</p>");
    expect(html).not.toContain("Best vs original");
  });

  it("marks a simulated optimization and its refreshing page while it runs", () => {
    const html = renderOptimizeReport(
      results({ simulated: true, status: "running", exit_reason: "running" }),
    );
    expect(html).toContain(
      '<body>\n<div class="banner">SIMULATED: skillgym sim stood in for the agent and the improver; these scores test the harness, not the description.</div><h1>',
    );
    expect(html).toContain(
      "<p>Status: <b>running</b> (this page refreshes every 5 s); stopped because: still running",
    );
  });

  it("escapes quotes and ampersands", () => {
    const html = renderOptimizeReport(results({ final_description: `Tom's "notes" & more` }));
    expect(html).toContain("Tom&#39;s &quot;notes&quot; &amp; more");
  });

  it("opens a finished real optimization's page with nothing but its title, and lists rows one a line", () => {
    const html = renderOptimizeReport(
      results({
        resumed_at: ["2025-01-31T15:00:00.000Z", "2025-01-31T16:00:00.000Z", "2025-01-31T17:00:00.000Z"],
        test_gain: null,
        split: { train: [query("alpha", true), query("beta", false)], test: [query("gamma", true)] },
      }),
    );
    expect(html.startsWith('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n<title>')).toBe(
      true,
    );
    expect(html).toContain("</head><body>\n<h1>Description optimizer: scribe</h1>");
    expect(html).toContain("Resumed 3× (last 2025-01-31T17:00:00.000Z).");
    expect(html).toContain("(held out: the improver never sees them).\n" + "Train runs screened by replay");
    expect(html).toContain("test runs are the agent's.</p>\n\n<table><tr><th>original</th>");
    expect(html).toContain('<tr><td>beta</td><td>no</td><td class="fail">0/1</td>');
    expect(html).toContain("<td>interrupted</td></tr></table>\n<h2>Per query");
    expect(html.match(/^<tr class="(best)?"><td>\d/gm)).toHaveLength(4);
  });
});
