import { describe, expect, it } from "vitest";
import type { RunData } from "../../src/bench/model.js";
import { benchmarkNotes, type NotesInput } from "../../src/bench/notes.js";
import { grading } from "./iteration-fixture.js";

type Configuration = RunData["configuration"];

function graded(
  configuration: Configuration,
  runNumber: number,
  results: Record<string, boolean>,
  extra: { seconds?: number; tokens?: number; evalId?: number } = {},
): RunData {
  return {
    evalId: extra.evalId ?? 1,
    evalName: "Ocean",
    configuration,
    runNumber,
    grading: grading(results),
    timing: { total_duration_seconds: extra.seconds ?? 10, total_tokens: extra.tokens ?? 1000 },
    outcome: "success",
    problems: [],
  };
}

function notesFor(runs: RunData[], overrides: Partial<NotesInput> = {}): string[] {
  return benchmarkNotes({
    runs,
    configurations: [...new Set(runs.map((r) => r.configuration))],
    baseline: "without_skill",
    simulated: false,
    problems: [],
    ...overrides,
  });
}

const steady = [1, 2, 3].flatMap((k) => [
  graded("with_skill", k, { "Is a PDF": true, "Has a table": true, "Cites a source": false }),
  graded("without_skill", k, { "Is a PDF": true, "Has a table": false, "Cites a source": false }),
]);

describe("benchmarkNotes", () => {
  it("flags an assertion that passes everywhere as non-discriminating", () => {
    const notes = notesFor(steady);
    expect(notes).toContain(
      'Eval 1 (Ocean): assertion "Is a PDF" is non-discriminating: passes 100% with and without the skill (6 runs); it does not measure the skill',
    );
    expect(notes.join("\n")).not.toContain('"Has a table" is non-discriminating');
  });

  it("names the old skill when it is the baseline", () => {
    const runs = steady.map((r) => ({
      ...r,
      configuration: r.configuration === "with_skill" ? r.configuration : ("old_skill" as const),
    }));
    expect(notesFor(runs, { baseline: "old_skill" }).join("\n")).toContain(
      "passes 100% with and with the old skill",
    );
  });

  it("does not call an assertion non-discriminating without a baseline to compare", () => {
    const only = steady.filter((r) => r.configuration === "with_skill");
    expect(notesFor(only, { baseline: undefined }).join("\n")).not.toContain("non-discriminating");
  });

  it("flags an assertion that fails everywhere", () => {
    expect(notesFor(steady)).toContain(
      'Eval 1 (Ocean): assertion "Cites a source" always fails — check the assertion or the eval (failed all 6 runs)',
    );
  });

  it("flags a flaky assertion per configuration, and nothing flaky in steady runs", () => {
    expect(notesFor(steady).join("\n")).not.toContain("flaky");
    const runs = [
      graded("with_skill", 1, { a: true }),
      graded("with_skill", 2, { a: false }),
      graded("with_skill", 3, { a: true }),
      graded("without_skill", 1, { a: false }),
      graded("without_skill", 2, { a: false }),
    ];
    expect(notesFor(runs)).toContain('Eval 1 (Ocean): assertion "a" is flaky: passed 2 of 3 with_skill runs');
  });

  it("flags an eval whose pass rate varies by 0.3 or more, not one that varies less", () => {
    const wild = [graded("with_skill", 1, { a: true }), graded("with_skill", 2, { a: false })];
    expect(notesFor(wild).join("\n")).toContain(
      "Eval 1 (Ocean) shows high variance with_skill (50% ± 71% over 2 runs) — may be flaky or model-dependent",
    );
    // Rates 1, 0.75, 1, 0.75: stddev 0.144.
    const calm = [1, 2, 3, 4].map((k) =>
      graded("with_skill", k, { a: true, b: true, c: true, d: k % 2 === 1 }),
    );
    expect(notesFor(calm).join("\n")).not.toContain("high variance");
  });

  it("flags a run that took more than twice its configuration's median time or tokens", () => {
    const runs = [
      graded("with_skill", 1, { a: true }, { seconds: 10, tokens: 1000 }),
      graded("with_skill", 2, { a: true }, { seconds: 12, tokens: 1100 }),
      graded("with_skill", 3, { a: true }, { seconds: 30, tokens: 2000 }),
    ];
    const notes = notesFor(runs);
    expect(notes).toContain(
      "Eval 1 (Ocean) with_skill run 3 took 30.0 s, more than 2× the with_skill median (12.0 s)",
    );
    // 2000 tokens is not more than twice 1100.
    expect(notes.join("\n")).not.toContain("tokens, more than");
  });

  it("leaves errored runs out of the outliers and the assertion counts", () => {
    const crashed: RunData = {
      ...graded("with_skill", 3, { a: false }, { seconds: 600 }),
      outcome: "timeout",
      exclusion: { kind: "errored", reason: "timeout", message: "timeout" },
    };
    const notes = notesFor([
      graded("with_skill", 1, { a: true }),
      graded("with_skill", 2, { a: true }),
      crashed,
    ]);
    expect(notes.join("\n")).not.toMatch(/took|flaky/);
    expect(notes).toContain("with_skill: 1 run errored (timeout) and is left out of the pass rates");
  });

  it("starts with the simulator warning, and keeps the iteration's own problems", () => {
    const notes = notesFor(steady, { simulated: true, problems: ["iteration.json at plan: required"] });
    expect(notes[0]).toBe(
      "These results come from skillgym sim, not a model: they test the suite, not the skill",
    );
    expect(notes.at(-1)).toBe("iteration.json at plan: required");
  });
});
