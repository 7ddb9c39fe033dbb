import { describe, expect, it } from "vitest";
import type { RunData } from "../../src/bench/model.js";
import { benchmarkNotes, type NotesInput } from "../../src/bench/notes.js";
import type { PairedDelta } from "../../src/bench/paired-delta.js";
import { grading } from "./iteration-fixture.js";

type Configuration = RunData["configuration"];

function graded(
  configuration: Configuration,
  runNumber: number,
  results: Record<string, boolean>,
  extra: { seconds?: number; tokens?: number; evalId?: number; evalName?: string } = {},
): RunData {
  return {
    evalId: extra.evalId ?? 1,
    evalName: extra.evalName ?? "Ocean",
    configuration,
    runNumber,
    grading: grading(results),
    timing: { total_duration_seconds: extra.seconds ?? 10, total_tokens: extra.tokens ?? 1000 },
    outcome: "success",
    problems: [],
  };
}

function excluded(
  configuration: Configuration,
  runNumber: number,
  kind: NonNullable<RunData["exclusion"]>["kind"],
  reason: string = kind,
): RunData {
  return {
    evalId: 1,
    evalName: "Ocean",
    configuration,
    runNumber,
    exclusion: { kind, reason, message: reason },
    problems: [],
  };
}

const notesFor = (runs: RunData[], overrides: Partial<NotesInput> = {}) =>
  benchmarkNotes({
    runs,
    configurations: ["with_skill", "without_skill"],
    baseline: "without_skill",
    simulated: false,
    problems: [],
    ...overrides,
  });

const interval = {
  estimate: 0.25,
  ci_low: 0.1,
  ci_high: 0.4,
  confidence: 0.95,
  distinguishable: true,
  pairs: 9,
};
const delta = (overrides: Partial<PairedDelta> = {}): PairedDelta => ({
  baseline: "without_skill",
  overall: interval,
  perEval: [],
  pairs: 9,
  pairedEvals: 2,
  ...overrides,
});

describe("the delta notes", () => {
  it("gives the interval over its pairs, and calls fewer than ten pairs rough", () => {
    expect(notesFor([], { delta: delta() })).toEqual([
      "Pass rate, with_skill − without_skill: +0.25 (95% CI +0.10 to +0.40), over 9 paired runs in 2 evals",
      "Only 9 paired runs: treat the interval as rough (a bootstrap this small tends to be too narrow); more runs (--runs) help",
    ]);
    expect(notesFor([], { delta: delta({ pairs: 10, pairedEvals: 1 }) })).toEqual([
      "Pass rate, with_skill − without_skill: +0.25 (95% CI +0.10 to +0.40), over 10 paired runs in 1 eval",
    ]);
  });

  it("says there is nothing to compare without an interval, naming the baseline", () => {
    expect(notesFor([], { delta: delta({ overall: null, pairs: 1, baseline: "old_skill" }) })).toEqual([
      "Pass rate, with_skill − old_skill: no paired runs to compare (1 pair; an interval needs at least 2 runs graded in both configurations with the same eval and run number)",
    ]);
  });

  it("asks for a baseline when none ran, and says nothing of a delta not computed", () => {
    expect(notesFor([], { baseline: undefined })).toEqual([
      "No baseline configuration was run, so there is no delta: run `skillgym eval` with a baseline",
    ]);
    expect(notesFor([])).toEqual([]);
  });
});

describe("the notes on runs left out", () => {
  it("words each kind of exclusion, one run and several", () => {
    const runs = [
      excluded("with_skill", 1, "unreadable"),
      excluded("with_skill", 2, "contaminated"),
      excluded("without_skill", 1, "contaminated"),
      excluded("without_skill", 2, "contaminated"),
      excluded("without_skill", 3, "ungraded"),
      excluded("without_skill", 4, "ungraded"),
      excluded("without_skill", 5, "errored", "timeout"),
    ];
    expect(notesFor(runs)).toEqual([
      "with_skill: 1 run has unreadable files (see its `error`) and is left out of the pass rates",
      "with_skill: 1 run is contaminated: it saw the skill it should not have (see its activation.json) and is left out of the pass rates and the delta",
      "without_skill: 1 run errored (timeout) and is left out of the pass rates",
      "without_skill: 2 runs are not graded yet and are left out of the pass rates",
      "without_skill: 2 runs are contaminated: they saw the skill they should not have (see their activation.json) and are left out of the pass rates and the delta",
    ]);
  });

  it("counts the reasons of several errored runs, in the order first seen", () => {
    const runs = [
      excluded("with_skill", 1, "errored", "timeout"),
      excluded("with_skill", 2, "errored", "overloaded"),
      excluded("with_skill", 3, "errored", "timeout"),
      excluded("with_skill", 4, "not_run", "not run"),
    ];
    expect(notesFor(runs, { configurations: ["with_skill"], baseline: undefined }).slice(1)).toEqual([
      "with_skill: 3 runs errored (2 timeout, 1 overloaded) and are left out of the pass rates",
      "with_skill: 1 planned run was never run and is left out of the pass rates",
    ]);
  });
});

describe("the assertion notes", () => {
  it("needs both configurations to call an assertion non-discriminating", () => {
    const onlyWith = [graded("with_skill", 1, { a: true }), graded("with_skill", 2, { a: true })];
    expect(notesFor(onlyWith).join("\n")).not.toContain("non-discriminating");
  });

  it("calls an assertion that failed a single run nothing, and one failed in two runs always failing", () => {
    expect(notesFor([graded("with_skill", 1, { a: false })])).toEqual([]);
    expect(
      notesFor([graded("with_skill", 1, { a: false }), graded("without_skill", 1, { a: false })]),
    ).toEqual([
      'Eval 1 (Ocean): assertion "a" always fails — check the assertion or the eval (failed all 2 runs)',
    ]);
  });

  it("names every configuration an assertion is flaky in", () => {
    const runs = [
      graded("with_skill", 1, { a: true }),
      graded("with_skill", 2, { a: false }),
      graded("without_skill", 1, { a: false }),
      graded("without_skill", 2, { a: true }),
      graded("without_skill", 3, { a: true }),
    ];
    expect(notesFor(runs)).toContain(
      'Eval 1 (Ocean): assertion "a" is flaky: passed 1 of 2 with_skill runs, 2 of 3 without_skill runs',
    );
  });
});

describe("the variance notes", () => {
  it("looks at each eval and configuration apart, and gives the mean and spread in percent", () => {
    const runs = [
      graded("with_skill", 1, { a: true }, { evalId: 1 }),
      graded("with_skill", 2, { a: true }, { evalId: 1 }),
      graded("with_skill", 1, { a: true, b: true }, { evalId: 2, evalName: "Forest" }),
      graded("with_skill", 2, { a: false, b: false }, { evalId: 2, evalName: "Forest" }),
      graded("with_skill", 3, { a: true, b: false }, { evalId: 2, evalName: "Forest" }),
      graded("without_skill", 1, { a: true, b: true }, { evalId: 2, evalName: "Forest" }),
      graded("without_skill", 2, { a: true, b: true }, { evalId: 2, evalName: "Forest" }),
    ];
    const notes = notesFor(runs).filter((n) => n.includes("variance"));
    // Eval 2 with_skill: rates 1, 0, 0.5: mean 50%, sample stddev 0.5.
    expect(notes).toEqual([
      "Eval 2 (Forest) shows high variance with_skill (50% ± 50% over 3 runs) — may be flaky or model-dependent",
    ]);
  });
});

describe("the outlier notes", () => {
  it("flags a run that used more than twice the median tokens", () => {
    const runs = [
      graded("with_skill", 1, { a: true }, { tokens: 1000 }),
      graded("with_skill", 2, { a: true }, { tokens: 1200 }),
      graded("with_skill", 3, { a: true }, { tokens: 2600.4 }),
    ];
    expect(notesFor(runs, { configurations: ["with_skill"], baseline: undefined }).slice(1)).toEqual([
      "Eval 1 (Ocean) with_skill run 3 used 2600 tokens, more than 2× the with_skill median (1200 tokens)",
    ]);
  });

  it("needs three measured runs, and a median above zero", () => {
    const two = [
      graded("with_skill", 1, { a: true }, { seconds: 1 }),
      graded("with_skill", 2, { a: true }, { seconds: 100 }),
    ];
    expect(notesFor(two, { configurations: ["with_skill"], baseline: undefined }).join("\n")).not.toContain(
      "more than",
    );
    const zero = [0, 0, 5].map((tokens, i) => graded("with_skill", i + 1, { a: true }, { tokens }));
    expect(notesFor(zero, { configurations: ["with_skill"], baseline: undefined }).join("\n")).not.toContain(
      "more than",
    );
  });

  it("skips a run that has no time while still flagging the others", () => {
    const untimed: RunData = { ...graded("with_skill", 4, { a: true }), timing: {} };
    const runs = [
      graded("with_skill", 1, { a: true }, { seconds: 10 }),
      graded("with_skill", 2, { a: true }, { seconds: 10 }),
      graded("with_skill", 3, { a: true }, { seconds: 25 }),
      untimed,
    ];
    expect(notesFor(runs, { configurations: ["with_skill"], baseline: undefined })).toContain(
      "Eval 1 (Ocean) with_skill run 3 took 25.0 s, more than 2× the with_skill median (10.0 s)",
    );
  });
});

describe("the ambiguity and partial-merge notes", () => {
  it("quotes each ambiguous expectation with its reasons and a rewording when there is one", () => {
    const notes = notesFor([], {
      ambiguous: [
        { eval_id: 3, text: "Is  short", reasons: ["judges split", "flips on a re-grade"] },
        { eval_id: "x", text: "Cites", reasons: ["judges split"], suggested_rewording: "Cites a  URL" },
      ],
    });
    expect(notes).toEqual([
      'Ambiguous expectation "Is short" (eval 3): judges split; flips on a re-grade',
      'Ambiguous expectation "Cites" (eval x): judges split; consider: "Cites a URL"',
    ]);
  });

  it("opens with what a partial merge lacked, capitalized, after the simulator warning", () => {
    const notes = notesFor([], {
      simulated: true,
      partial: {
        count: 2,
        planned_runs: { eval: 8, trigger: 0 },
        missing_runs: { eval: 4, trigger: 0 },
        shards: [
          {
            index: 2,
            state: "missing",
            planned_runs: { eval: 4, trigger: 0 },
            missing_runs: { eval: 4, trigger: 0 },
          },
        ],
      },
    });
    expect(notes).toEqual([
      "These results come from skillgym sim, not a model: they test the suite, not the skill",
      "Partial merge: 4 of 8 eval runs missing (shard 2/2 not given: 4 of 4 eval runs missing); the figures cover only the runs that finished",
    ]);
  });

  it("does not say an assertion always fails when only the baseline fails it", () => {
    const runs = [1, 2].flatMap((k) => [
      graded("with_skill", k, { a: true }),
      graded("without_skill", k, { a: false }),
    ]);
    expect(notesFor(runs).join("\n")).not.toContain("always fails");
    const failing = [1, 2].flatMap((k) => [
      graded("with_skill", k, { a: false }),
      graded("without_skill", k, { a: false }),
    ]);
    expect(notesFor(failing)).toContain(
      'Eval 1 (Ocean): assertion "a" always fails — check the assertion or the eval (failed all 4 runs)',
    );
  });

  it("calls a spread of exactly 30 points high variance", () => {
    // Pass rates 0, 0.6 and 0.3 have a sample spread of exactly 0.3.
    const tenAssertions = (passed: number) =>
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`a${i}`, i < passed]));
    const runs = [0, 6, 3].map((passed, i) => graded("with_skill", i + 1, tenAssertions(passed)));
    expect(notesFor(runs)).toContain(
      "Eval 1 (Ocean) shows high variance with_skill (30% ± 30% over 3 runs) — may be flaky or model-dependent",
    );
  });

  it("finds outliers against the median of their own configuration only", () => {
    // The skill's runs all use ten times the baseline's tokens: no run is an outlier in its own configuration.
    const runs = [
      ...[1, 2, 3].map((k) => graded("with_skill", k, { a: true }, { tokens: 1000 })),
      ...[1, 2, 3, 4].map((k) => graded("without_skill", k, { a: true }, { tokens: 100 })),
    ];
    expect(notesFor(runs).join("\n")).not.toContain("more than 2×");
  });
});
