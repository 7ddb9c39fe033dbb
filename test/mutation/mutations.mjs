// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the mutations are source text, template placeholders included
// The mutations `npm run mutate` applies, one at a time, to a copy of the repository: each a small bug people make.
// `find` must occur exactly once in `file`; when it no longer does, the mutation is reported, never skipped.
// `tests` are the test files run against it (a `*` matches within one path segment; `*.test.ts` leaves out
// `.e2e.test.ts` files unless the pattern names e2e). `grep` narrows the run to test names matching it. A mutation
// whose tests include an e2e file gets the mutated file built into the copy's dist/ as well.

const score = ["test/triggers/score*.test.ts"];
const detect = ["test/triggers/detect*.test.ts"];
const settle = ["test/triggers/settle*.test.ts"];
const triggerKeys = ["test/triggers/*key*.test.ts"];
const store = ["test/store/*.test.ts"];
const runKeys = ["test/run/*key*.test.ts"];
const shard = ["test/shard/*.test.ts", "test/pipeline/shard-share.test.ts"];
const merge = ["test/merge/*.test.ts"];
const catalog = ["test/catalog/*.test.ts"];
const redact = ["test/agents/redact*.test.ts", "test/workspace/collect-redacted.test.ts"];
const allowedEnv = ["test/agents/allowed-env.test.ts", "test/grade/checks/command.test.ts"];
const links = [
  "test/tree/*.test.ts",
  "test/skill/links.test.ts",
  "test/suite/links.test.ts",
  "test/workspace/links.test.ts",
  "test/tune/links.test.ts",
];
const adaptive = ["test/run/adaptive*.test.ts"];
const budget = ["test/run/budget*.test.ts", "test/pipeline/gates*.test.ts", "test/run/scheduler.test.ts"];
const retry = ["test/run/retry*.test.ts"];
const statistics = [
  "test/bench/statistics.test.ts",
  "test/bench/bootstrap*.test.ts",
  "test/bench/build-benchmark.test.ts",
];
const benchmark = ["test/bench/build-benchmark.test.ts", "test/bench/write-benchmark.test.ts"];
const agentMatrix = ["test/bench/agent-matrix*.test.ts"];
const notes = ["test/bench/notes*.test.ts"];
const gates = ["test/pipeline/gates*.test.ts"];
const estimate = ["test/pipeline/estimate*.test.ts", "test/pipeline/shard-share.test.ts"];
const costHistory = ["test/pipeline/cost-history*.test.ts", "test/pipeline/estimate*.test.ts"];
const tune = ["test/tune/estimate*.test.ts"];
const tempRoot = ["test/workspace/temp-root*.test.ts"];
const outputLimits = [
  "test/workspace/scan-changes*.test.ts",
  "test/workspace/collect-bounds*.test.ts",
  "test/workspace/output-limits*.test.ts",
];
const junit = ["test/ci/junit*.test.ts"];
const reporters = ["test/cli/reporters/*.test.ts"];

export const mutations = [
  // src/triggers
  {
    id: "score-precision-recall-swapped",
    file: "src/triggers/score.ts",
    find: "    precision,\n    recall,\n    f1,",
    replace: "    precision: recall,\n    recall: precision,\n    f1,",
    description: "trigger summary: precision and recall swapped",
    tests: score,
  },
  {
    id: "score-f1-arithmetic-mean",
    file: "src/triggers/score.ts",
    find: ": (2 * precision * recall) / (precision + recall);",
    replace: ": (precision + recall) / 2;",
    description: "trigger summary: F1 as the arithmetic mean of precision and recall",
    tests: score,
  },
  {
    id: "score-errored-runs-as-misses",
    file: "src/triggers/score.ts",
    find: "fn += scored - r.triggers;",
    replace: "fn += r.runs - r.triggers;",
    description: "trigger summary: errored runs of a should-trigger query counted as false negatives",
    tests: score,
  },
  {
    id: "score-stolen-counts-errored-runs",
    file: "src/triggers/score.ts",
    find: "for (const run of scored) for (const skill of run.stolenBy)",
    replace: "for (const run of runs) for (const skill of run.stolenBy)",
    description: "trigger query: skills that took the query counted over errored runs too",
    tests: score,
  },
  {
    id: "score-threshold-strict",
    file: "src/triggers/score.ts",
    find: "query.should_trigger ? rate >= threshold : rate < threshold",
    replace: "query.should_trigger ? rate > threshold : rate < threshold",
    description: "trigger query: a rate exactly at the threshold fails a should-trigger query",
    tests: score,
  },
  {
    id: "settle-remaining-from-scored",
    file: "src/triggers/settle.ts",
    find: "const remaining = Math.max(0, rule.maxRuns - tally.done);",
    replace: "const remaining = Math.max(0, rule.maxRuns - tally.scored);",
    description: "settling: errored runs not counted as done, so a query never settles after an error",
    tests: settle,
  },
  {
    id: "detect-stolen-when-triggered",
    file: "src/triggers/detect.ts",
    find: "return detection.triggered ? [] : detection.loaded.filter((s) => s !== realName);",
    replace: "return detection.loaded.filter((s) => s !== realName);",
    description: "trigger detection: other skills counted as stealing a query ours did take",
    tests: detect,
  },
  {
    id: "trigger-key-without-description",
    file: "src/triggers/reuse-trigger.ts",
    find: "    name: ctx.skillName,\n    description,\n",
    replace: "    name: ctx.skillName,\n",
    description: "trigger store key: the description left out (an edited description is served old verdicts)",
    tests: triggerKeys,
  },

  // src/store and how run keys are built
  {
    id: "store-key-order-sensitive",
    file: "src/store/key.ts",
    find: "        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))\n",
    replace: "",
    description: "store key: object keys not sorted, so the same parts in another order give another key",
    tests: store,
  },
  {
    id: "store-tree-hash-without-path",
    file: "src/store/key.ts",
    find: "hash.update(`f\\0${rel}\\0${bytes.length}\\0`);",
    replace: "hash.update(`f\\0${bytes.length}\\0`);",
    description: "workspace hash: a file's path left out (a renamed file keeps the key)",
    tests: store,
  },
  {
    id: "store-tree-hash-without-link-target",
    file: "src/store/key.ts",
    find: "hash.update(`l\\0${rel}\\0${await readlink(full)}\\0`);",
    replace: "hash.update(`l\\0${rel}\\0`);",
    description: "workspace hash: a link's target left out (a retargeted link keeps the key)",
    tests: store,
  },
  {
    id: "store-read-size-not-sha",
    file: "src/store/store.ts",
    find: "if (bytes.length !== file.size || hashBytes(bytes) !== file.sha256) return undefined;",
    replace: "if (bytes.length !== file.size) return undefined;",
    description: "store read: checks each file's size but not its SHA-256",
    tests: store,
  },
  {
    id: "store-read-any-key",
    file: "src/store/store.ts",
    find: "if (!parsed.success || parsed.data.key !== key || parsed.data.kind !== kind) return undefined;",
    replace: "if (!parsed.success || parsed.data.kind !== kind) return undefined;",
    description: "store read: an entry recorded under another key is trusted",
    tests: store,
  },
  {
    id: "store-copy-ignores-leave-out",
    file: "src/store/store.ts",
    find: "    if (leaveOut(file.path)) continue;\n",
    replace: "",
    description: "store copy: a stale grading.json copied although the caller left it out",
    tests: store,
  },
  {
    id: "store-fresh-still-reads",
    file: "src/store/store.ts",
    find: "reads: settings.fresh !== true,",
    replace: "reads: true,",
    description: "store: --fresh says it reads the store",
    tests: store,
  },
  {
    id: "run-key-without-prompt",
    file: "src/run/reuse.ts",
    find: "prompt: spec.eval.prompt,\n    timeout_ms: spec.timeoutMs,",
    replace: "timeout_ms: spec.timeoutMs,",
    description: "eval run key: the prompt left out (an edited prompt is served the old run)",
    tests: runKeys,
  },
  {
    id: "run-key-without-run-number",
    file: "src/run/reuse.ts",
    find: "...outputLimitsKey(ctx.outputLimits),\n    run: spec.runNumber,",
    replace: "...outputLimitsKey(ctx.outputLimits),",
    description: "eval run key: the run number left out (every run of an eval served the same stored run)",
    tests: runKeys,
  },
  {
    id: "grading-key-without-judge",
    file: "src/run/reuse.ts",
    find: "storeKey({ expectations: spec.eval.expectations, checks: spec.eval.checks, judge });",
    replace: "storeKey({ expectations: spec.eval.expectations, checks: spec.eval.checks });",
    description: "grading key: the judge left out (another judge's grading is kept)",
    tests: runKeys,
  },

  // src/shard
  {
    id: "partition-off-by-one",
    file: "src/shard/partition.ts",
    find: "dealt % shard.count === shard.index - 1",
    replace: "dealt % shard.count === shard.index",
    description: "partition: shards dealt one place off (shard n gets nothing)",
    tests: shard,
  },
  {
    id: "parse-shard-last-refused",
    file: "src/shard/partition.ts",
    find: "if (index < 1 || index > count)",
    replace: "if (index < 1 || index >= count)",
    description: "--shard: the last shard n/n refused",
    tests: shard,
  },
  {
    id: "plan-hash-order-sensitive",
    file: "src/shard/plan-hash.ts",
    find: "        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))\n",
    replace: "",
    description: "plan hash: depends on key order",
    tests: shard,
  },

  // src/merge
  {
    id: "merge-skill-hash-from-triggers",
    file: "src/merge/plan-fields.ts",
    find: "value: (s) => s.iteration?.skill_hash,",
    replace: "value: (s) => s.triggerPlan?.skill_hash,",
    description:
      "merge: the evals' skill hash read from the trigger plan (shards of different skill versions accepted)",
    tests: merge,
  },
  {
    id: "merge-agent-not-compared",
    file: "src/merge/plan-fields.ts",
    find: 'value: (s) => recorded(s, (r) => r.agent?.name ?? "claude-code"),',
    replace: 'value: () => "claude-code",',
    description: "merge: shards run by different agents accepted (the agent field dropped)",
    tests: merge,
  },
  {
    id: "merge-missing-off-by-one",
    file: "src/merge/check-shards.ts",
    find: "Array.from({ length: count }, (_, i) => i + 1)",
    replace: "Array.from({ length: count }, (_, i) => i)",
    description: "merge: missing shards counted from 0",
    tests: merge,
  },
  {
    id: "merge-overlap-flipped",
    file: "src/merge/check-shards.ts",
    find: "if (earlier && earlier !== s.source)",
    replace: "if (earlier && earlier === s.source)",
    description: "merge: a run in two shards not refused",
    tests: merge,
  },
  {
    id: "merge-triggers-errors-scored",
    file: "src/merge/merge-triggers.ts",
    find: "const scored = runs - errors;",
    replace: "const scored = runs;",
    description: "merged trigger results: errored runs counted in the rate",
    tests: merge,
  },
  {
    id: "merge-triggers-default-threshold",
    file: "src/merge/merge-triggers.ts",
    find: "const threshold = first.threshold ?? 0.5;",
    replace: "const threshold = 0.5;",
    description: "merged trigger results: the shards' --threshold dropped for the default",
    tests: merge,
  },
  {
    id: "merge-triggers-stolen-overwritten",
    file: "src/merge/merge-triggers.ts",
    find: "(s, p) => addCounts(s, p.stolen_by),",
    replace: "(s, p) => p.stolen_by ?? s,",
    description: "merged trigger results: the last shard's stolen_by replaces the others' instead of adding",
    tests: merge,
  },

  // src/catalog
  {
    id: "catalog-fp-fn-swapped",
    file: "src/catalog/matrix.ts",
    find: "if (run.should_trigger) fired ? tp++ : fn++;\n    else fired ? fp++ : tn++;",
    replace: "if (run.should_trigger) fired ? tp++ : fp++;\n    else fired ? fn++ : tn++;",
    description: "catalog matrix: false positives and false negatives swapped",
    tests: catalog,
  },
  {
    id: "catalog-own-fire-is-confusion",
    file: "src/catalog/matrix.ts",
    find: "if (!run.should_trigger || run.fired === NONE || run.fired === run.owner) continue;",
    replace: "if (!run.should_trigger || run.fired === NONE) continue;",
    description: "catalog pairs: a skill firing on its own query counted as confusion with itself",
    tests: catalog,
  },
  {
    id: "catalog-errored-runs-scored",
    file: "src/catalog/matrix.ts",
    find: "const scored = runs.filter((r) => r.error === undefined);",
    replace: "const scored = runs;",
    description: "catalog matrix: errored runs scored as misses",
    tests: catalog,
  },
  {
    id: "catalog-run-dir-off-by-one",
    file: "src/catalog/plan.ts",
    find: "`query-${queryIndex + 1}`",
    replace: "`query-${queryIndex}`",
    description: "catalog plan: query folders numbered from 0",
    tests: catalog,
  },
  {
    id: "catalog-key-without-descriptions",
    file: "src/catalog/reuse-catalog.ts",
    find: ".map((m) => ({ name: m.name, description: m.description }))",
    replace: ".map((m) => ({ name: m.name }))",
    description: "catalog store key: the skills' descriptions left out",
    tests: catalog,
  },
  {
    id: "catalog-key-without-run",
    file: "src/catalog/reuse-catalog.ts",
    find: "      should_trigger: spec.shouldTrigger,\n      run: spec.runNumber,\n",
    replace: "      should_trigger: spec.shouldTrigger,\n",
    description: "catalog store key: the run number left out (every run of a query served one stored run)",
    tests: catalog,
  },

  // src/agents/allowed-env.ts
  {
    id: "allowed-env-passes-everything",
    file: "src/agents/allowed-env.ts",
    find: "const env: NodeJS.ProcessEnv = {};",
    replace: "const env: NodeJS.ProcessEnv = { ...parent };",
    description: "child environment: the parent's whole environment passed on (CI tokens reach every run)",
    tests: allowedEnv,
  },
  {
    id: "allowed-env-suite-names-dropped",
    file: "src/agents/allowed-env.ts",
    find: "return { names: names ?? [] };",
    replace: "return { names: [] };",
    description: "child environment: the names a suite's evals.json `env` lists not passed on",
    tests: allowedEnv,
  },
  // src/agents/redact.ts
  {
    id: "redact-min-length-off-by-one",
    file: "src/agents/redact.ts",
    find: "value.length >= MIN_SECRET_LENGTH",
    replace: "value.length > MIN_SECRET_LENGTH",
    description: "redaction: a secret of exactly the minimum length left in clear",
    tests: redact,
  },
  {
    id: "redact-min-length-doubled",
    file: "src/agents/redact.ts",
    find: "const MIN_SECRET_LENGTH = 8;",
    replace: "const MIN_SECRET_LENGTH = 16;",
    description: "redaction: minimum secret length a power of two too high",
    tests: redact,
  },
  {
    id: "redact-shortest-first",
    file: "src/agents/redact.ts",
    find: "b.text.length - a.text.length",
    replace: "a.text.length - b.text.length",
    description: "redaction: shorter values matched first, leaving the tail of a longer secret",
    tests: redact,
  },
  {
    id: "redact-no-double-escape",
    file: "src/agents/redact.ts",
    find: "return [...new Set([value, once, twice])];",
    replace: "return [...new Set([value, once])];",
    description: "redaction: a value escaped twice (JSON in JSON) not masked",
    tests: redact,
  },
  {
    id: "redact-bytes-untouched",
    file: "src/agents/redact.ts",
    find: "bytes: (bytes) => (kept.size === 0 ? bytes :",
    replace: "bytes: (bytes) => (kept.size !== 0 ? bytes :",
    description: "redaction: the byte path skipped whenever there is a secret",
    tests: redact,
  },
  {
    id: "redact-stream-overlap-short",
    file: "src/agents/redact.ts",
    find: "...patterns.map((p) => p.text.length)) - 1;",
    replace: "...patterns.map((p) => p.text.length)) - 2;",
    description:
      "streaming redaction: one byte too little held back between chunks (a split value slips through)",
    tests: redact,
  },

  // src/workspace/scan-changes.ts, collect.ts, output-limits.ts
  {
    id: "output-largest-file-unchecked",
    file: "src/workspace/scan-changes.ts",
    find: "  if (info.size > limits.fileBytes) throw fileTooLarge(rel, info.size, limits);\n",
    replace: "",
    description: "output limits: the walk never checks the largest file (a sparse 3 GB file is taken in)",
    tests: outputLimits,
  },
  {
    id: "output-count-off-by-one",
    file: "src/workspace/scan-changes.ts",
    find: "tally.touched.size > limits.files",
    replace: "tally.touched.size >= limits.files",
    description: "output limits: exactly --max-output-files files refused",
    tests: outputLimits,
  },
  {
    id: "output-total-off-by-one",
    file: "src/workspace/scan-changes.ts",
    find: "tally.bytes > limits.totalBytes",
    replace: "tally.bytes >= limits.totalBytes",
    description: "output limits: outputs of exactly --max-output refused",
    tests: outputLimits,
  },
  {
    id: "output-copy-total-unchecked",
    file: "src/workspace/collect.ts",
    find: "if (copy.bytes > limits.totalBytes)",
    replace: "if (copy.bytes < 0)",
    description:
      "output limits: the copy never checks the total (files that grew since the walk are copied whole)",
    tests: outputLimits,
  },
  {
    id: "collect-deadline-no-floor",
    file: "src/workspace/output-limits.ts",
    find: "Math.max(timeoutMs - agentMs, COLLECT_FLOOR_MS)",
    replace: "(timeoutMs - agentMs)",
    description: "collection deadline: no floor (a run that used all its time gets none to collect)",
    tests: outputLimits,
  },

  // src/tree/links.ts
  {
    id: "links-outside-by-prefix",
    file: "src/tree/links.ts",
    find: 'if (relativeInside(realRoot, real) === undefined) return { status: "outside", target, real };',
    replace: 'if (!real.startsWith(realRoot)) return { status: "outside", target, real };',
    description: "links: outside tested by string prefix (/x/skill-evil counts as inside /x/skill)",
    tests: links,
  },
  {
    id: "links-real-inside-by-prefix",
    file: "src/tree/links.ts",
    find: "return relativeInside(realRoot, real) === undefined ? undefined : real;",
    replace: "return real.startsWith(realRoot) ? real : undefined;",
    description: "realInside: inside tested by string prefix",
    tests: links,
  },
  {
    id: "links-left-out-target-followed",
    file: "src/tree/links.ts",
    find: '(targetRel !== undefined && targetRel !== "" && (await skip?.(targetRel, isDir, real)))',
    replace: "false",
    description: "links: an inside link to a left-out file (config -> .env) is not left out",
    tests: links,
  },
  {
    id: "links-dangling-reported-inside",
    file: "src/tree/links.ts",
    find: '      if (link.status === "dangling") continue;\n',
    replace: "",
    description: "links: a dangling link reported as a problem link",
    tests: links,
  },

  // src/run/adaptive.ts, budget.ts, retry.ts
  {
    id: "adaptive-no-interval-settled",
    file: "src/run/adaptive.ts",
    find: "settled: perEval[i]?.delta?.distinguishable === true,",
    replace: "settled: perEval[i]?.delta?.distinguishable !== false,",
    description: "--adaptive: an eval with no interval yet treated as settled",
    tests: adaptive,
  },
  {
    id: "adaptive-cap-inclusive",
    file: "src/run/adaptive.ts",
    find: "(runsSoFar.get(c.folder) ?? 0) < maxRuns",
    replace: "(runsSoFar.get(c.folder) ?? 0) <= maxRuns",
    description: "--adaptive: one run past --max-runs",
    tests: adaptive,
  },
  {
    id: "adaptive-round-replans-all-runs",
    file: "src/run/adaptive.ts",
    find: "}).filter((s) => s.runNumber === k);",
    replace: "});",
    description: "--adaptive: a round plans every run of the eval again instead of only the new pair",
    tests: adaptive,
  },
  {
    id: "budget-refuses-exact-limit",
    file: "src/run/budget.ts",
    find: "* budget.estimateUsd > budget.maxUsd",
    replace: "* budget.estimateUsd >= budget.maxUsd",
    description: "--max-cost: a run landing exactly on the limit refused",
    tests: budget,
  },
  {
    id: "budget-ignores-in-flight",
    file: "src/run/budget.ts",
    find: "(budget.inFlight + 1) * budget.estimateUsd",
    replace: "budget.estimateUsd",
    description: "--max-cost: runs in flight not reserved",
    tests: budget,
  },
  {
    id: "retry-backoff-doubled",
    file: "src/run/retry.ts",
    find: "options.policy.baseDelayMs * 2 ** (n - 1)",
    replace: "options.policy.baseDelayMs * 2 ** n",
    description: "retry: backoff one power of two too long",
    tests: retry,
  },
  {
    id: "retry-one-attempt-too-many",
    file: "src/run/retry.ts",
    find: "n < options.policy.attempts",
    replace: "n <= options.policy.attempts",
    description: "retry: one attempt more than the policy allows",
    tests: retry,
  },
  {
    id: "retry-delay-cap-ignored",
    file: "src/run/retry.ts",
    find: "Math.min(options.policy.maxDelayMs,",
    replace: "Math.max(options.policy.maxDelayMs,",
    description: "retry: the delay cap used as a floor",
    tests: retry,
  },

  // src/bench
  {
    id: "bootstrap-evals-not-resampled",
    file: "src/bench/statistics.ts",
    find: "const group = nonEmpty[pick(nonEmpty.length)]!;",
    replace: "const group = nonEmpty[g]!;",
    description: "bootstrap: evals not resampled, only the runs within each",
    tests: statistics,
  },
  {
    id: "bootstrap-upper-index-off",
    file: "src/bench/statistics.ts",
    find: "Math.ceil(options.resamples - tail) - 1",
    replace: "Math.ceil(options.resamples - tail)",
    description: "bootstrap: the upper percentile one index off",
    tests: statistics,
  },
  {
    id: "bootstrap-lower-index-off",
    file: "src/bench/statistics.ts",
    find: "Math.max(0, Math.floor(tail))",
    replace: "Math.max(0, Math.floor(tail) - 1)",
    description: "bootstrap: the lower percentile one index off",
    tests: statistics,
  },
  {
    id: "bootstrap-within-not-resampled",
    file: "src/bench/statistics.ts",
    find: "sum += group[pick(group.length)]!;",
    replace: "sum += group[i]!;",
    description: "bootstrap: runs within an eval not resampled",
    tests: statistics,
  },
  {
    id: "stddev-population",
    file: "src/bench/statistics.ts",
    find: "squares / (values.length - 1)",
    replace: "squares / values.length",
    description: "statistics: population instead of sample standard deviation",
    tests: statistics,
  },
  {
    id: "paired-delta-unpaired-runs",
    file: "src/bench/paired-delta.ts",
    find: ".filter((k) => base.has(k))",
    replace: ".filter((k) => k > 0)",
    description: "paired delta: runs paired although the baseline run is missing",
    tests: benchmark,
  },
  {
    id: "benchmark-delta-reversed",
    file: "src/bench/build-benchmark.ts",
    find: "formatSigned(withSkill.pass_rate.mean - base.pass_rate.mean, 2)",
    replace: "formatSigned(base.pass_rate.mean - withSkill.pass_rate.mean, 2)",
    description: "benchmark: delta as baseline minus with_skill",
    tests: benchmark,
  },
  {
    id: "matrix-precision-recall-swapped",
    file: "src/bench/agent-matrix.ts",
    find: "{ precision: t.precision, recall: t.recall,",
    replace: "{ precision: t.recall, recall: t.precision,",
    description: "agent matrix: an agent's trigger precision and recall swapped",
    tests: agentMatrix,
  },
  {
    id: "matrix-graded-counts-errored",
    file: "src/bench/agent-matrix.ts",
    find: "graded_runs: runs.filter((r) => r.error === undefined).length,",
    replace: "graded_runs: runs.length,",
    description: "agent matrix: errored runs counted as graded",
    tests: agentMatrix,
  },
  {
    id: "flaky-needs-three-runs",
    file: "src/bench/assertions.ts",
    find: "count.runs >= 2 &&",
    replace: "count.runs > 2 &&",
    description: "notes: an assertion that passed once and failed once not called flaky",
    tests: notes,
  },
  {
    id: "outlier-at-exactly-twice",
    file: "src/bench/notes.ts",
    find: "value <= outlierFactor * middle",
    replace: "value < outlierFactor * middle",
    description: "notes: a run at exactly twice the median called an outlier",
    tests: notes,
  },

  // src/pipeline/gates.ts
  {
    id: "gate-accuracy-at-limit-fails",
    file: "src/pipeline/gates.ts",
    find: "passed: accuracy >= gates.minTriggerAccuracy,",
    replace: "passed: accuracy > gates.minTriggerAccuracy,",
    description: "gates: trigger accuracy exactly at --min-trigger-accuracy fails",
    tests: gates,
  },
  {
    id: "gate-pass-rate-at-limit-fails",
    file: "src/pipeline/gates.ts",
    find: "passed: rate >= gates.minPassRate,",
    replace: "passed: rate > gates.minPassRate,",
    description: "gates: pass rate exactly at --min-pass-rate fails",
    tests: gates,
  },
  {
    id: "gate-accuracy-judged-by-pass-rate",
    file: "src/pipeline/gates.ts",
    find: "const accuracy = triggers?.summary.accuracy;",
    replace:
      "const accuracy = benchmark?.run_summary.with_skill?.pass_rate.mean ?? triggers?.summary.accuracy;",
    description:
      "gates: the accuracy gate reads the pass rate when there is one (one failing gate hides the other)",
    tests: gates,
  },
  {
    id: "gate-errored-runs-graded",
    file: "src/pipeline/gates.ts",
    find: '(r) => r.configuration === "with_skill" && !("error" in r && r.error),',
    replace: '(r) => r.configuration === "with_skill",',
    description: "gates: errored with_skill runs count as graded",
    tests: gates,
  },

  // --dry-run cost, cost history, --no-grade, tune --max-cost
  {
    id: "estimate-no-grade-still-judged",
    file: "src/pipeline/estimate.ts",
    find: "const judgeCalls = input.grade\n    ? evals.filter((e) => e.expectations.length > 0).length * input.configurations * input.runs\n    : 0;",
    replace:
      "const judgeCalls = evals.filter((e) => e.expectations.length > 0).length * input.configurations * input.runs;",
    description: "--dry-run: judge calls counted under --no-grade",
    tests: estimate,
  },
  {
    id: "estimate-judges-every-eval",
    file: "src/pipeline/estimate.ts",
    find: "? evals.filter((e) => e.expectations.length > 0).length * input.configurations * input.runs",
    replace: "? evals.length * input.configurations * input.runs",
    description: "--dry-run: a judge call counted for evals without expectations",
    tests: estimate,
  },
  {
    id: "estimate-trigger-runs-at-agent-price",
    file: "src/pipeline/estimate.ts",
    find: "triggerRuns * u.triggerRunUsd",
    replace: "triggerRuns * u.agentRunUsd",
    description: "--dry-run: trigger runs priced as agent runs",
    tests: estimate,
  },
  {
    id: "estimate-waves-floor",
    file: "src/pipeline/estimate.ts",
    find: "Math.ceil(n / Math.max(1, concurrency))",
    replace: "Math.floor(n / Math.max(1, concurrency))",
    description: "--dry-run: a last partial wave not counted",
    tests: estimate,
  },
  {
    id: "cost-history-counts-simulated",
    file: "src/pipeline/cost-history.ts",
    find: "if (!record || record.simulated) continue;",
    replace: "if (!record) continue;",
    description: "cost history: a simulated iteration's $0 runs taken as real prices",
    tests: costHistory,
  },
  {
    id: "cost-history-counts-free-runs",
    file: "src/pipeline/cost-history.ts",
    find: "timing.data.cost_usd > 0",
    replace: "timing.data.cost_usd >= 0",
    description: "cost history: reused runs (cost 0) drag the mean down",
    tests: costHistory,
  },
  {
    id: "cost-history-oldest-first",
    file: "src/pipeline/cost-history.ts",
    find: "const numbers = (await iterationNumbers(workspace)).reverse();",
    replace: "const numbers = await iterationNumbers(workspace);",
    description: "cost history: the oldest iteration's prices used instead of the latest",
    tests: costHistory,
  },
  {
    id: "tune-estimate-improver-every-iteration",
    file: "src/tune/estimate.ts",
    find: "Math.max(0, input.iterations - 1)",
    replace: "Math.max(0, input.iterations)",
    description: "tune --max-cost estimate: the improver counted in the last iteration too",
    tests: tune,
  },
  {
    id: "tune-estimate-no-evaluator",
    file: "src/tune/estimate.ts",
    find: "s.judgedEvals * input.runs + 1",
    replace: "s.judgedEvals * input.runs",
    description: "tune --max-cost estimate: the evaluator call per skill left out",
    tests: tune,
  },
  {
    id: "shard-share-no-grade-judged",
    file: "src/pipeline/shard-share.ts",
    find: "judgeCalls: input.grade ? mine.filter((s) => s.eval.expectations.length > 0).length : 0,",
    replace: "judgeCalls: mine.filter((s) => s.eval.expectations.length > 0).length,",
    description: "--dry-run --shard: judge calls counted under --no-grade",
    tests: estimate,
  },

  // src/workspace/temp-root.ts, --keep-workspaces
  {
    id: "temp-root-zombie-alive",
    file: "src/owned-temp.ts",
    find: '    if (fields[0] === "Z") return undefined;\n',
    replace: "",
    description: "temp sweep: a zombie owner taken for alive (its folders never swept)",
    tests: tempRoot,
  },
  {
    id: "temp-root-eperm-dead",
    file: "src/workspace/temp-root.ts",
    find: 'return errnoOf(error) === "EPERM";',
    replace: "return false;",
    description: "temp sweep: an owner that answers EPERM (another user's live process) taken for dead",
    tests: tempRoot,
  },
  {
    id: "temp-root-kept-swept",
    file: "src/workspace/temp-root.ts",
    find: "      if (await isKept(dir)) continue;\n",
    replace: "",
    description: "temp sweep: a --keep-workspaces root swept",
    tests: tempRoot,
  },
  {
    id: "keep-workspaces-attempt-removed",
    file: "src/run/execute-run.ts",
    find: "    ...(ctx.keepWorkspaces ? { keepWorkspace: true } : {}),\n",
    replace: "",
    description: "--keep-workspaces: the temp root is kept but each run's workspace removed",
    tests: ["test/cli/flags.e2e.test.ts"],
    grep: "keep-workspaces",
  },

  // Orphans: what an agent started in a session of its own must end with its run
  {
    id: "marked-processes-never-ended",
    file: "src/agents/process/marked-processes.ts",
    find: "if (left.length === 0 || Date.now() > until) return;",
    replace: "return;",
    description: "agent runs: processes an agent started in a session of its own left running (orphans)",
    tests: ["test/e2e/agent-processes.test.ts"],
  },

  // src/ci/junit.ts
  {
    id: "junit-failure-counts-errored",
    file: "src/ci/junit.ts",
    find: "triggered ${r.triggers} of ${r.runs - r.errors} runs",
    replace: "triggered ${r.triggers} of ${r.runs} runs",
    description: "JUnit: a failed query's text counts errored runs",
    tests: junit,
  },
  {
    id: "junit-excluded-as-passing",
    file: "src/ci/junit.ts",
    find: "  if (run.exclusion) return { ...base, skipped: run.exclusion.message };\n",
    replace: "",
    description: "JUnit: an excluded run written as a passing testcase instead of <skipped>",
    tests: junit,
  },
  {
    id: "junit-errors-as-failures",
    file: "src/ci/junit.ts",
    find: "failures: cases.filter((c) => c.failure).length,",
    replace: "failures: cases.filter((c) => c.failure || c.error).length,",
    description: "JUnit: errored cases counted as failures too",
    tests: junit,
  },

  // src/cli/reporters
  {
    id: "run-summary-precision-recall-swapped",
    file: "src/cli/reporters/pipeline-summary.ts",
    find: "precision ${pct(t.precision)}, recall ${pct(t.recall)}",
    replace: "precision ${pct(t.recall)}, recall ${pct(t.precision)}",
    description: "run summary: precision and recall swapped",
    tests: reporters,
  },
  {
    id: "pass-rates-line-swapped",
    file: "src/cli/reporters/result-lines.ts",
    find: "`evals: with_skill ${pct(withSkill)}${baselineName ? `, ${baselineName} ${pct(baseline)}",
    replace: "`evals: with_skill ${pct(baseline)}${baselineName ? `, ${baselineName} ${pct(withSkill)}",
    description: "summary line: with_skill's and the baseline's pass rates swapped",
    tests: reporters,
  },
  {
    id: "trigger-line-f1-accuracy-swapped",
    file: "src/cli/reporters/trigger-results.ts",
    find: "F1 ${pct(s.f1)}, accuracy ${pct(s.accuracy)}",
    replace: "F1 ${pct(s.accuracy)}, accuracy ${pct(s.f1)}",
    description: "triggers summary line: F1 and accuracy swapped",
    tests: reporters,
  },
  {
    id: "catalog-line-precision-recall-swapped",
    file: "src/cli/reporters/catalog-progress.ts",
    find: "precision ${pct(s.precision)}, recall ${pct(s.recall)}",
    replace: "precision ${pct(s.recall)}, recall ${pct(s.precision)}",
    description: "catalog summary line: precision and recall swapped",
    tests: reporters,
  },
];
