import { describe, expect, it } from "vitest";
import { Feedback, History } from "../../src/contracts/index.js";
import { issueMessages, issuePaths } from "./issues.js";
import { seedHistory } from "./seed-examples.js";

const [v0, v1, v2] = seedHistory.iterations as [
  (typeof seedHistory.iterations)[number],
  (typeof seedHistory.iterations)[number],
  (typeof seedHistory.iterations)[number],
];

describe("history.json", () => {
  it("rejects an unknown grading_result", () => {
    const bad = { ...seedHistory, iterations: [v0, { ...v1, grading_result: "better" }, v2] };
    expect(issuePaths(History, bad)).toEqual(["iterations[1].grading_result"]);
  });

  it("rejects a current_best that names no iteration", () => {
    const bad = {
      ...seedHistory,
      current_best: "v9",
      iterations: [v0, v1, { ...v2, is_current_best: false }],
    };
    expect(issuePaths(History, bad)).toEqual(["current_best"]);
  });

  it("rejects an is_current_best that disagrees with current_best", () => {
    const bad = { ...seedHistory, iterations: [{ ...v0, is_current_best: true }, v1, v2] };
    expect(issuePaths(History, bad)).toEqual(["iterations[0].is_current_best"]);
  });

  it("rejects a version used twice", () => {
    const bad = { ...seedHistory, iterations: [v0, { ...v1, version: "v0" }, v2] };
    expect(issuePaths(History, bad)).toEqual(["iterations[1].version"]);
  });

  it("says what is wrong with a version, an is_current_best and a current_best", () => {
    expect(
      issueMessages(History, { ...seedHistory, iterations: [v0, { ...v1, version: "v0" }, v2] }),
    ).toEqual(['duplicate version "v0" (first used by iterations[0])']);
    expect(
      issueMessages(History, { ...seedHistory, iterations: [{ ...v0, is_current_best: true }, v1, v2] }),
    ).toEqual([`is true but current_best is "${seedHistory.current_best}"`]);
    expect(
      issueMessages(History, {
        ...seedHistory,
        current_best: "v9",
        iterations: [v0, v1, { ...v2, is_current_best: false }],
      }),
    ).toEqual(['"v9" is not the version of any iteration']);
  });

  it("accepts a history that has not started yet, and our score extra", () => {
    expect(History.safeParse({ ...seedHistory, iterations: [] }).success).toBe(true);
    expect(
      History.parse({ ...seedHistory, iterations: [v0, v1, { ...v2, score: 82.5 }] }).iterations[2]?.score,
    ).toBe(82.5);
  });
});

describe("feedback.json", () => {
  const feedback = {
    reviews: [
      {
        run_id: "eval-1-with_skill-run-1",
        feedback: "Chart is missing axis labels",
        timestamp: "2026-01-15T11:00:00Z",
      },
    ],
    status: "complete",
  };

  it("parses what the viewer writes, status optional", () => {
    expect(Feedback.parse(feedback)).toEqual(feedback);
    expect(Feedback.safeParse({ reviews: [] }).success).toBe(true);
  });

  it("fails without reviews and at a review lacking its run_id", () => {
    expect(issuePaths(Feedback, { status: "complete" })).toEqual(["reviews"]);
    expect(issuePaths(Feedback, { reviews: [{ feedback: "x", timestamp: "t" }] })).toEqual([
      "reviews[0].run_id",
    ]);
  });
});
