import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeUnderFreeName } from "../../src/runlog/atomic-write.js";
import { evalDirName, evalIdFromDirName, runDir, runPaths } from "../../src/runlog/layout.js";
import { iterationNumbers, listRuns } from "../../src/runlog/list-runs.js";
import { byBrowsingOrder, listOutputFiles, readOutputFiles } from "../../src/runlog/output-files.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-runlog-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function files(entries: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(entries)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

describe("layout", () => {
  it("names a run folder after the suite's id, and reads the id back", () => {
    expect(runDir("/w/iteration-1", "pdf merge", "with_skill", 2)).toBe(
      "/w/iteration-1/eval-pdf_merge/with_skill/run-2",
    );
    expect(evalIdFromDirName(evalDirName(7))).toBe(7);
    expect(evalIdFromDirName(evalDirName("merge"))).toBe("merge");
    expect(runPaths("/r").metrics).toBe("/r/outputs/metrics.json");
  });
});

describe("listRuns", () => {
  it("lists run folders by eval, with_skill first, then run number, and skips what is no run", async () => {
    await files({
      "it/eval-10/without_skill/run-1/timing.json": "{}",
      "it/eval-2/without_skill/run-1/timing.json": "{}",
      "it/eval-2/with_skill/run-10/timing.json": "{}",
      "it/eval-2/with_skill/run-2/timing.json": "{}",
      "it/eval-2/with_skill/notes/x": "",
      "it/other/with_skill/run-1/x": "",
      "it/iteration.json": "{}",
    });
    expect((await listRuns(join(dir, "it"))).map((r) => r.id)).toEqual([
      "eval-2/with_skill/run-2",
      "eval-2/with_skill/run-10",
      "eval-2/without_skill/run-1",
      "eval-10/without_skill/run-1",
    ]);
    expect(await listRuns(join(dir, "missing"))).toEqual([]);
  });

  it("finds the iteration numbers of a workspace in order", async () => {
    await files({ "iteration-10/a": "", "iteration-2/a": "", "iteration-x/a": "" });
    expect(await iterationNumbers(dir)).toEqual([2, 10]);
  });
});

describe("output files", () => {
  it("lists the agent's regular files, never metrics.json or a symlink", async () => {
    await files({ "o/metrics.json": "{}", "o/b.txt": "b", "o/a/file10.txt": "", "o/a/file2.txt": "" });
    await symlink("/etc/passwd", join(dir, "o", "link"));
    const found = await listOutputFiles(join(dir, "o"));
    expect(found.map((f) => f.path)).toEqual(["a/file10.txt", "a/file2.txt", "b.txt"]);
    expect([...found].sort(byBrowsingOrder).map((f) => f.path)).toEqual([
      "a/file2.txt",
      "a/file10.txt",
      "b.txt",
    ]);
  });

  it("reads text clipped to a budget and names binary files", async () => {
    await files({ "o/a.txt": "hello world", "o/b.bin": "x\u0000y" });
    expect(await readOutputFiles(join(dir, "o"), { maxFileChars: 5 })).toEqual([
      { path: "a.txt", content: "hello", binary: false, bytes: 11, clipped: true },
      { path: "b.bin", content: undefined, binary: true, bytes: 3, clipped: false },
    ]);
  });
});

describe("writeUnderFreeName", () => {
  it("takes the first name still free and leaves no temp file", async () => {
    await writeFile(join(dir, "a.json"), "taken");
    const names = ["a.json", "b.json", "c.json"].map((n) => join(dir, n));
    expect(await writeUnderFreeName(dir, "{}\n", names)).toBe(join(dir, "b.json"));
    expect(await writeUnderFreeName(dir, "{}\n", names.slice(0, 2))).toBeUndefined();
    expect((await readdir(dir)).sort()).toEqual(["a.json", "b.json"]);
  });
});
