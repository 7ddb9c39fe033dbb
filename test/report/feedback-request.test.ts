import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssues, FeedbackRequest } from "../../src/report/feedback-request.js";

const refused = (body: unknown) => {
  const parsed = FeedbackRequest.safeParse(body);
  if (parsed.success) throw new Error("expected the body to be refused");
  return describeIssues(parsed.error);
};

// What a refused feedback post is told: each problem, naming its field.
describe("FeedbackRequest refusals", () => {
  it("names run_id when feedback or a grade comes without one", () => {
    expect(refused({ iteration: 1, feedback: "x" })).toBe(
      "run_id: run_id goes with feedback or a grade mark; body: expected run_id and feedback, or status",
    );
    expect(refused({ iteration: 1, grade: { text: "g", verdict: null }, status: "complete" })).toBe(
      "run_id: run_id goes with feedback or a grade mark",
    );
  });

  it("names feedback when a run_id comes without feedback or a grade", () => {
    expect(refused({ iteration: 1, run_id: "a", status: "complete" })).toBe(
      "feedback: run_id goes with feedback or a grade mark",
    );
  });

  it("names the body when it holds neither a review nor a status", () => {
    expect(refused({ iteration: 1 })).toBe("body: expected run_id and feedback, or status");
  });

  it("takes a grade mark alone, and a status alone", () => {
    expect(
      FeedbackRequest.safeParse({ iteration: 0, run_id: "a", grade: { text: "g", verdict: null } }).success,
    ).toBe(true);
    expect(FeedbackRequest.safeParse({ iteration: 0, status: "complete" }).success).toBe(true);
  });
});

describe("describeIssues", () => {
  it("lists unknown fields by name and at most five problems, joined by semicolons", () => {
    const schema = z.strictObject({
      a: z.number(),
      b: z.number(),
      c: z.number(),
      d: z.number(),
      e: z.number(),
      f: z.number(),
    });
    const parsed = schema.safeParse({ x: 1, y: 2 });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error.issues.length).toBeGreaterThan(5);
    const text = describeIssues(parsed.error);
    expect(text.split("; ")).toHaveLength(5);
    expect(text).toBe(
      [
        "a: Invalid input: expected number, received undefined",
        "b: Invalid input: expected number, received undefined",
        "c: Invalid input: expected number, received undefined",
        "d: Invalid input: expected number, received undefined",
        "e: Invalid input: expected number, received undefined",
      ].join("; "),
    );
    const unknown = z.strictObject({}).safeParse({ x: 1, y: 2 });
    if (unknown.success) throw new Error("expected unknown fields to be refused");
    expect(describeIssues(unknown.error)).toBe("body: unknown field(s) x, y");
    const nested = z
      .strictObject({ grade: z.strictObject({ text: z.string() }) })
      .safeParse({ grade: { text: 1 } });
    if (nested.success) throw new Error("expected a nested field to be refused");
    expect(describeIssues(nested.error)).toBe("grade.text: Invalid input: expected string, received number");
  });
});
