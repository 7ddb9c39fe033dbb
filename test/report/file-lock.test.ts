import { readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { updateFeedback } from "../../src/report/feedback-store.js";
import { FileLockTimeout, withFileLock } from "../../src/report/file-lock.js";
import { tempDir } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  ws = await tempDir();
});
afterEach(async () => {
  await ws.cleanup();
});

describe("withFileLock", () => {
  it("runs holders one at a time and removes the lock after", async () => {
    const file = join(ws.dir, "data.json");
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 12 }, () =>
        withFileLock(file, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 5));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(await readdir(ws.dir)).toEqual([]);
  });

  it("breaks a stale lock left by a dead process", async () => {
    const file = join(ws.dir, "data.json");
    await writeFile(`${file}.lock`, "12345 gone\n");
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    expect(await withFileLock(file, async () => "ran", { staleMs: 1000 })).toBe("ran");
    expect(await readdir(ws.dir)).toEqual([]);
  });

  it("lets several waiters break the same stale lock at once, each running once", async () => {
    const file = join(ws.dir, "data.json");
    await writeFile(`${file}.lock`, "12345 gone\n");
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    const ran = await Promise.all(
      Array.from({ length: 8 }, (_, i) => withFileLock(file, async () => i, { staleMs: 1000 })),
    );
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await readdir(ws.dir)).toEqual([]);
  });

  it("leaves no file open behind it", async () => {
    const file = join(ws.dir, "data.json");
    const open = async () => (await readdir("/proc/self/fd")).length;
    const before = await open();
    for (let i = 0; i < 20; i++) await withFileLock(file, async () => i);
    expect(await open()).toBe(before);
  });

  it("leaves alone a lock its work removed, and one someone else holds by then", async () => {
    const file = join(ws.dir, "data.json");
    expect(await withFileLock(file, async () => rm(`${file}.lock`).then(() => "removed"))).toBe("removed");
    expect(await readdir(ws.dir)).toEqual([]);
    await withFileLock(file, async () => writeFile(`${file}.lock`, "999 another\n"));
    expect(await readFile(`${file}.lock`, "utf8")).toBe("999 another\n");
  });

  it("gives up on a fresh lock held by someone else, naming it, and leaves it alone", async () => {
    const file = join(ws.dir, "data.json");
    await writeFile(`${file}.lock`, "12345 other\n");
    const attempt = withFileLock(file, async () => "ran", { staleMs: 5000, waitMs: 200 });
    await expect(attempt).rejects.toThrow(FileLockTimeout);
    await expect(attempt).rejects.toThrow(`${file}.lock`);
    expect(await readFile(`${file}.lock`, "utf8")).toBe("12345 other\n");
  });
});

describe("updateFeedback under concurrency", () => {
  it("keeps every review of many unserialised parallel updates", async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `run-${i}`);
    await Promise.all(ids.map((id) => updateFeedback(ws.dir, { run_id: id, feedback: `note ${id}` })));
    const saved = JSON.parse(await readFile(join(ws.dir, "feedback.json"), "utf8"));
    expect(saved.reviews.map((r: { run_id: string }) => r.run_id).sort()).toEqual([...ids].sort());
    expect(await readdir(ws.dir)).toEqual(["feedback.json"]);
  });

  it("waits while another process holds the lock, then saves", async () => {
    const lock = join(ws.dir, "feedback.json.lock");
    await writeFile(lock, "1 other\n");
    let released = false;
    setTimeout(() => {
      released = true;
      void rm(lock);
    }, 150);
    const saved = await updateFeedback(ws.dir, { run_id: "a", feedback: "x" });
    expect(released).toBe(true);
    expect(saved.reviews).toMatchObject([{ run_id: "a", feedback: "x" }]);
    expect(await readdir(ws.dir)).toEqual(["feedback.json"]);
  });
});
