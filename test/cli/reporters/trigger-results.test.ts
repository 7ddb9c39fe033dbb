import { describe, expect, it } from "vitest";
import { formatTriggerResults, settledNote } from "../../../src/cli/reporters/trigger-results.js";
import type { TriggerQueryResult } from "../../../src/contracts/trigger-results.js";
import { triggerResults } from "./records.js";

const query = (over: Partial<TriggerQueryResult> = {}): TriggerQueryResult => ({
  query: "make a birthday card",
  should_trigger: true,
  trigger_rate: 1,
  triggers: 3,
  runs: 3,
  errors: 0,
  pass: true,
  ...over,
});

const summaryLine =
  "3/4 queries passed, 1 failed, 0 errored; precision 80%, recall 40%, F1 53%, accuracy 65%";

describe("settledNote", () => {
  it("says how many runs settled verdicts saved, of the most every query could get", () => {
    const results = triggerResults({
      runs_per_query: 3,
      all_runs: false,
      results: [query({ runs: 2, triggers: 2 }), query({ runs: 3 }), query({ runs: 1, triggers: 1 })],
    });
    expect(settledNote(results)).toBe("settled verdicts saved 3 of 9 trigger runs");
  });

  it("says nothing when every query got all its runs, or the most is not known", () => {
    expect(
      settledNote(triggerResults({ runs_per_query: 3, all_runs: false, results: [query()] })),
    ).toBeUndefined();
    expect(
      settledNote(triggerResults({ runs_per_query: 3, all_runs: true, results: [query({ runs: 1 })] })),
    ).toBeUndefined();
    expect(settledNote(triggerResults({ all_runs: false, results: [query({ runs: 1 })] }))).toBeUndefined();
  });
});

describe("formatTriggerResults", () => {
  it("prints only the summary for no query", () => {
    expect(formatTriggerResults(triggerResults())).toBe(`${summaryLine}\n`);
  });

  it("prints a line per query: verdict, should or should not, its rate, errors and who stole it", () => {
    const text = formatTriggerResults(
      triggerResults({
        simulated: true,
        results: [
          query(),
          query({
            query: "q".repeat(75),
            should_trigger: false,
            trigger_rate: 0.5,
            triggers: 1,
            runs: 3,
            errors: 1,
            pass: false,
            stolen_by: { pdf: 1, docx: 2 },
          }),
          query({ query: "all errored", trigger_rate: null, triggers: 0, runs: 2, errors: 2, pass: null }),
        ],
      }),
    );
    expect(text.split("\n")).toEqual([
      "  pass  should     trigger   3/3  make a birthday card",
      `  FAIL  should not trigger   1/2  ${"q".repeat(70)}  (1 errored)  stolen by pdf×1, docx×2`,
      "  ERROR should     trigger     —  all errored  (2 errored)",
      `${summaryLine} (simulated)`,
      "",
    ]);
  });

  it("prints the clean room's rate beside the real one, what a flag means, and the clean room's summary", () => {
    const side = (trigger_rate: number | null, triggers: number, runs: number, errors: number) => ({
      trigger_rate,
      triggers,
      runs,
      errors,
      pass: trigger_rate === null ? null : trigger_rate >= 0.5,
    });
    const results = (project: boolean) =>
      triggerResults({
        ...(project ? { conditions: { project_root: "/repo" } } : {}),
        side_by_side: {
          conditions: ["clean", "real"],
          clean_summary: {
            total: 3,
            passed: 2,
            failed: 1,
            errors: 0,
            precision: null,
            recall: null,
            f1: null,
            accuracy: 0.667,
          },
          clean_only: 1,
          real_only: 0,
        },
        results: [
          query({
            trigger_rate: 0,
            triggers: 0,
            pass: false,
            side_by_side: {
              clean: side(1, 3, 3, 0),
              real: side(0, 0, 3, 0),
              difference: -1,
              flag: "clean-only",
            },
          }),
          query({
            query: "quiet",
            should_trigger: false,
            trigger_rate: 0,
            triggers: 0,
            side_by_side: { clean: side(null, 0, 3, 3), real: side(0, 0, 3, 0), difference: null },
          }),
          query({
            query: "noisy",
            should_trigger: false,
            trigger_rate: 1,
            triggers: 3,
            pass: false,
            side_by_side: {
              // One clean-room run errored: the rate is of the two that answered.
              clean: side(0, 0, 3, 1),
              real: side(1, 3, 3, 0),
              difference: 1,
              flag: "clean-only",
            },
          }),
        ],
      });
    expect(formatTriggerResults(results(false)).split("\n")).toEqual([
      "  FAIL  should     trigger clean 3/3   real  0/3  make a birthday card  << fires in the clean room, not under your conditions",
      "  pass  should not trigger clean —     real  0/3  quiet",
      "  FAIL  should not trigger clean 0/2   real  3/3  noisy  << quiet in the clean room, fires under your conditions",
      "clean room: 2/3 queries passed, accuracy 67%; 1 pass only in the clean room, 0 only under the real conditions (the rest of this summary is the real conditions')",
      summaryLine,
      "",
    ]);
    expect(formatTriggerResults(results(true)).split("\n")[0]).toBe(
      "  FAIL  should     trigger clean 3/3   real  0/3  make a birthday card  << fires in an empty folder, not in your repository",
    );
  });

  it("says n/a for a metric that is not defined", () => {
    const text = formatTriggerResults(
      triggerResults({
        summary: {
          total: 1,
          passed: 0,
          failed: 0,
          errors: 1,
          precision: null,
          recall: null,
          f1: null,
          accuracy: null,
        },
      }),
    );
    expect(text).toBe(
      "0/1 queries passed, 0 failed, 1 errored; precision n/a, recall n/a, F1 n/a, accuracy n/a\n",
    );
  });
});
