import { readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FeedbackFileError, readFeedbackView, updateFeedback } from "../../src/report/feedback-store.js";
import { FileLockTimeout, withFileLock } from "../../src/report/file-lock.js";
import { tempDir } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  ws = await tempDir();
});
afterEach(async () => {
  await ws.cleanup();
});

const file = () => join(ws.dir, "feedback.json");
const read = async () => JSON.parse(await readFile(file(), "utf8"));
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

describe("readFeedbackView", () => {
  it("has no reviews, no status and no problem without a file", async () => {
    expect(await readFeedbackView(ws.dir)).toEqual({ reviews: {}, status: null, problem: null });
  });

  it("gives each review by its run, grades only where marked, and the status", async () => {
    await writeFile(
      file(),
      JSON.stringify({
        status: "complete",
        reviews: [
          { run_id: "a", feedback: "one", timestamp: "t1" },
          { run_id: "b", feedback: "", timestamp: "t2", grades: [{ text: "x", verdict: "right" }] },
        ],
      }),
    );
    expect(await readFeedbackView(ws.dir)).toEqual({
      reviews: {
        a: { feedback: "one", timestamp: "t1" },
        b: { feedback: "", timestamp: "t2", grades: [{ text: "x", verdict: "right" }] },
      },
      status: "complete",
      problem: null,
    });
    await writeFile(file(), JSON.stringify({ reviews: [] }));
    expect((await readFeedbackView(ws.dir)).status).toBeNull();
  });

  it("names the file and the place of a problem", async () => {
    await writeFile(file(), "{ nope");
    const broken = await readFeedbackView(ws.dir);
    expect(broken.problem).toMatch(new RegExp(`^${file().replace(/[.]/g, "\\.")}: not valid JSON \\(.+\\)$`));
    expect(broken.reviews).toEqual({});
    expect(broken.status).toBeNull();
    await writeFile(file(), "[]");
    expect((await readFeedbackView(ws.dir)).problem).toBe(
      `${file()} at (top): Invalid input: expected object, received array`,
    );
    await writeFile(file(), JSON.stringify({ reviews: [{ run_id: 3 }] }));
    expect((await readFeedbackView(ws.dir)).problem).toMatch(`${file()} at reviews.0.run_id: `);
  });
});

describe("updateFeedback", () => {
  it("refuses a broken file with a message saying what to do", async () => {
    await writeFile(file(), "[]");
    const attempt = updateFeedback(ws.dir, { status: "complete" });
    await expect(attempt).rejects.toThrow(FeedbackFileError);
    await expect(attempt).rejects.toThrow(
      `${file()} at (top): Invalid input: expected object, received array; fix or remove it to save feedback`,
    );
    expect(new FeedbackFileError("x").name).toBe("FeedbackFileError");
  });

  it("keeps the status when a change sets none, and leaves reviews alone for a status", async () => {
    await writeFile(
      file(),
      JSON.stringify({ status: "complete", reviews: [{ run_id: "a", feedback: "f", timestamp: "t" }] }),
    );
    await updateFeedback(ws.dir, { run_id: "b", feedback: "g" }, at(1));
    expect((await read()).status).toBe("complete");
    await updateFeedback(ws.dir, { run_id: "a", status: "in_progress" }, at(2));
    expect(await read()).toEqual({
      status: "in_progress",
      reviews: [
        { run_id: "a", feedback: "f", timestamp: "t" },
        { run_id: "b", feedback: "g", timestamp: "2026-01-01T00:00:01.000Z" },
      ],
    });
  });

  it("drops the grades of a review whose last mark is taken back, keeping its text", async () => {
    await updateFeedback(ws.dir, { run_id: "a", feedback: "text" }, at(1));
    await updateFeedback(ws.dir, { run_id: "a", grade: { text: "g", verdict: "wrong" } }, at(2));
    await updateFeedback(ws.dir, { run_id: "a", grade: { text: "g", verdict: null } }, at(3));
    expect((await read()).reviews).toEqual([
      { run_id: "a", feedback: "text", timestamp: "2026-01-01T00:00:03.000Z" },
    ]);
  });

  it("takes back a mark on a run with no review without adding one", async () => {
    const saved = await updateFeedback(ws.dir, { run_id: "a", grade: { text: "g", verdict: null } }, at(1));
    expect(saved).toEqual({ reviews: [], status: "in_progress" });
  });
});

describe("withFileLock", () => {
  const data = () => join(ws.dir, "data.json");

  it("lets an error other than a held lock through at once", async () => {
    const attempt = withFileLock(join(ws.dir, "missing", "data.json"), async () => "ran", { waitMs: 60_000 });
    await expect(attempt).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("waits for a fresh lock until it goes stale when no wait is given", async () => {
    await writeFile(`${data()}.lock`, "1 other\n");
    expect(await withFileLock(data(), async () => "ran", { staleMs: 100 })).toBe("ran");
  });

  it("breaks a lock older than ten seconds by default, and waits on a young one", async () => {
    await writeFile(`${data()}.lock`, "1 other\n");
    const young = new Date(Date.now() - 3_000);
    await utimes(`${data()}.lock`, young, young);
    await expect(withFileLock(data(), async () => "ran", { waitMs: 100 })).rejects.toThrow(FileLockTimeout);
    const old = new Date(Date.now() - 15_000);
    await utimes(`${data()}.lock`, old, old);
    expect(await withFileLock(data(), async () => "ran", { waitMs: 100 })).toBe("ran");
  });

  it("names the lock and what to do when it gives up", async () => {
    await writeFile(`${data()}.lock`, "1 other\n");
    await expect(withFileLock(data(), async () => "ran", { waitMs: 50 })).rejects.toThrow(
      `${data()}.lock is held by another process; remove it if no skillgym is running`,
    );
    expect(new FileLockTimeout("x").name).toBe("FileLockTimeout");
  });

  it("holds the lock with its process id while working, and leaves a lock that became another's", async () => {
    const seen = await withFileLock(data(), async () => readFile(`${data()}.lock`, "utf8"));
    expect(seen).toMatch(new RegExp(`^${process.pid} [0-9a-f-]{36}\\n$`));
    await withFileLock(data(), async () => {
      await writeFile(`${data()}.lock`, "2 someone else\n");
    });
    expect(await readFile(`${data()}.lock`, "utf8")).toBe("2 someone else\n");
  });
});

describe("updateFeedback while another process holds the lock", () => {
  it("gives up with a feedback error naming the lock, and leaves the file alone", async () => {
    await writeFile(file(), JSON.stringify({ reviews: [], status: "complete" }));
    await writeFile(`${file()}.lock`, "1 other\n");
    const attempt = updateFeedback(ws.dir, { status: "in_progress" }, at(1), { waitMs: 50 });
    await expect(attempt).rejects.toThrow(FeedbackFileError);
    await expect(attempt).rejects.toThrow(
      `${file()}.lock is held by another process; remove it if no skillgym is running`,
    );
    expect(await read()).toEqual({ reviews: [], status: "complete" });
  });

  it("lets any other failure through as it is", async () => {
    const attempt = updateFeedback(join(ws.dir, "missing"), { status: "complete" }, at(1), { waitMs: 50 });
    await expect(attempt).rejects.toMatchObject({ code: "ENOENT" });
  });
});
