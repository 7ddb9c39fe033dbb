import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FeedbackRequest } from "../../src/report/feedback-request.js";
import { FeedbackFileError, readFeedbackView, updateFeedback } from "../../src/report/feedback-store.js";
import { tempDir } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  ws = await tempDir();
});
afterEach(async () => {
  await ws.cleanup();
});

const read = async () => JSON.parse(await readFile(join(ws.dir, "feedback.json"), "utf8"));
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

describe("updateFeedback", () => {
  it("adds, replaces in place, and drops emptied reviews; status starts in_progress", async () => {
    await updateFeedback(ws.dir, { run_id: "a", feedback: "one" }, at(1));
    await updateFeedback(ws.dir, { run_id: "b", feedback: "two" }, at(2));
    await updateFeedback(ws.dir, { run_id: "a", feedback: "one, edited" }, at(3));
    expect(await read()).toEqual({
      reviews: [
        { run_id: "a", feedback: "one, edited", timestamp: "2026-01-01T00:00:03.000Z" },
        { run_id: "b", feedback: "two", timestamp: "2026-01-01T00:00:02.000Z" },
      ],
      status: "in_progress",
    });
    await updateFeedback(ws.dir, { run_id: "a", feedback: "  " });
    expect((await read()).reviews.map((r: { run_id: string }) => r.run_id)).toEqual(["b"]);
    await updateFeedback(ws.dir, { status: "complete" });
    expect((await read()).status).toBe("complete");
    expect(await readdir(ws.dir)).toEqual(["feedback.json"]);
  });

  it("marks a run's grades right or wrong beside its review, takes a mark back, and keeps a review of marks only", async () => {
    await updateFeedback(ws.dir, { run_id: "a", feedback: "looks fine" }, at(1));
    await updateFeedback(ws.dir, { run_id: "a", grade: { text: "beta is listed", verdict: "wrong" } }, at(2));
    await updateFeedback(
      ws.dir,
      { run_id: "a", grade: { text: "alpha is stated", verdict: "right" } },
      at(3),
    );
    await updateFeedback(ws.dir, { run_id: "a", grade: { text: "beta is listed", verdict: "right" } }, at(4));
    expect((await read()).reviews).toEqual([
      {
        run_id: "a",
        feedback: "looks fine",
        timestamp: "2026-01-01T00:00:04.000Z",
        grades: [
          { text: "alpha is stated", verdict: "right" },
          { text: "beta is listed", verdict: "right" },
        ],
      },
    ]);
    await updateFeedback(ws.dir, { run_id: "a", feedback: "" }, at(5));
    expect((await read()).reviews[0]).toMatchObject({ run_id: "a", feedback: "", grades: expect.any(Array) });
    const view = await readFeedbackView(ws.dir);
    expect(view.reviews.a?.grades).toHaveLength(2);
    await updateFeedback(ws.dir, { run_id: "a", grade: { text: "alpha is stated", verdict: null } }, at(6));
    await updateFeedback(ws.dir, { run_id: "a", grade: { text: "beta is listed", verdict: null } }, at(7));
    expect((await read()).reviews).toEqual([]);
    expect(
      FeedbackRequest.safeParse({ iteration: 1, run_id: "a", grade: { text: "x", verdict: "wrong" } })
        .success,
    ).toBe(true);
    expect(FeedbackRequest.safeParse({ iteration: 1, grade: { text: "x", verdict: "wrong" } }).success).toBe(
      false,
    );
    expect(
      FeedbackRequest.safeParse({ iteration: 1, run_id: "a", grade: { text: "x", verdict: "maybe" } })
        .success,
    ).toBe(false);
  });

  it("keeps what other tools wrote", async () => {
    await writeFile(
      join(ws.dir, "feedback.json"),
      JSON.stringify({
        reviews: [{ run_id: "x", feedback: "f", timestamp: "t", rating: 4 }],
        reviewer: "ann",
      }),
    );
    await updateFeedback(ws.dir, { run_id: "x", feedback: "g" }, at(5));
    expect(await read()).toEqual({
      reviews: [{ run_id: "x", feedback: "g", timestamp: "2026-01-01T00:00:05.000Z", rating: 4 }],
      reviewer: "ann",
      status: "in_progress",
    });
  });

  it("refuses to overwrite a file it cannot read, naming it", async () => {
    await writeFile(join(ws.dir, "feedback.json"), JSON.stringify({ reviews: "nope" }));
    await expect(updateFeedback(ws.dir, { status: "complete" })).rejects.toThrow(FeedbackFileError);
    await expect(updateFeedback(ws.dir, { status: "complete" })).rejects.toThrow(/feedback\.json at reviews/);
    const view = await readFeedbackView(ws.dir);
    expect(view.problem).toMatch(/feedback\.json/);
    expect(view.reviews).toEqual({});
  });
});

describe("FeedbackRequest", () => {
  it("accepts a review, a status, or both, and nothing else", () => {
    expect(FeedbackRequest.safeParse({ iteration: 1, run_id: "a", feedback: "" }).success).toBe(true);
    expect(FeedbackRequest.safeParse({ iteration: 1, status: "complete" }).success).toBe(true);
    expect(
      FeedbackRequest.safeParse({ iteration: 1, run_id: "a", feedback: "x", status: "in_progress" }).success,
    ).toBe(true);
    expect(
      FeedbackRequest.safeParse({ iteration: 1, run_id: "a", feedback: "x".repeat(10_000) }).success,
    ).toBe(true);
    expect(
      FeedbackRequest.safeParse({ iteration: 1, run_id: "a", feedback: "x".repeat(10_001) }).success,
    ).toBe(false);
    expect(FeedbackRequest.safeParse({ iteration: -1, status: "complete" }).success).toBe(false);
    expect(FeedbackRequest.safeParse({ iteration: 1, run_id: "", feedback: "x" }).success).toBe(false);
  });
});
