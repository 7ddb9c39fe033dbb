import { readdirSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  byBrowsingOrder,
  listOutputFiles,
  readHead,
  readOutputFiles,
} from "../../src/runlog/output-files.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "output-files-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function outputs(files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, path);
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, content);
  }
}

describe("listing output files", () => {
  it("lists files by their whole path, leaving out only the top metrics.json", async () => {
    await outputs({ "a/b.txt": "", "a.txt": "", "a-c": "", "metrics.json": "", "sub/metrics.json": "" });
    expect(await listOutputFiles(dir)).toEqual([
      { path: "a-c", absolute: join(dir, "a-c") },
      { path: "a.txt", absolute: join(dir, "a.txt") },
      { path: "a/b.txt", absolute: join(dir, "a/b.txt") },
      { path: "sub/metrics.json", absolute: join(dir, "sub/metrics.json") },
    ]);
  });
});

describe("reading a file's head", () => {
  it("reads at most the bytes asked for, says the whole size, and leaves no file open", async () => {
    await outputs({ "big.txt": "x".repeat(100), "small.txt": "abc" });
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const before = openFiles();
    const reads = await Promise.all(
      Array.from({ length: 20 }, (_, i) => readHead(join(dir, i % 2 ? "big.txt" : "small.txt"), 10)),
    );
    expect(reads[1]).toEqual({ head: Buffer.from("x".repeat(10)), size: 100 });
    expect(reads[0]).toEqual({ head: Buffer.from("abc"), size: 3 });
    if (process.platform === "linux") expect(openFiles()).toBe(before);
  });
});

describe("browsing order", () => {
  it("sorts folder by folder, numbers in order, a folder's name before its contents", () => {
    const paths = ["b/file10", "a/b", "b/file2", "b", "a", "b/x/y"];
    const sorted = paths.map((path) => ({ path, absolute: path })).sort(byBrowsingOrder);
    expect(sorted.map((p) => p.path)).toEqual(["a", "a/b", "b", "b/file2", "b/file10", "b/x/y"]);
    expect(byBrowsingOrder({ path: "a/b", absolute: "" }, { path: "a", absolute: "" })).toBe(1);
  });
});

describe("reading output files", () => {
  it("gives a file that fits whole and unclipped", async () => {
    await outputs({ "a.txt": "abc" });
    expect(await readOutputFiles(dir, { maxFileChars: 3 })).toEqual([
      { path: "a.txt", content: "abc", binary: false, bytes: 3, clipped: false },
    ]);
  });

  it("clips a file to its character allowance", async () => {
    await outputs({ "long.txt": "abcdefghijklmnopqrstuvwxyz".repeat(4), "one.txt": "abc" });
    expect(await readOutputFiles(dir, { maxFileChars: 8 })).toEqual([
      { path: "long.txt", content: "abcdefgh", binary: false, bytes: 104, clipped: true },
      { path: "one.txt", content: "abc", binary: false, bytes: 3, clipped: false },
    ]);
    expect(await readOutputFiles(dir, { maxFileChars: 1 })).toEqual([
      { path: "long.txt", content: "a", binary: false, bytes: 104, clipped: true },
      { path: "one.txt", content: "a", binary: false, bytes: 3, clipped: true },
    ]);
  });

  it("shares the total allowance among files, and names a file past it without its text", async () => {
    await outputs({ "a.txt": "abc", "b.txt": "defgh", "c.txt": "ij" });
    expect(await readOutputFiles(dir, { maxTotalChars: 5 })).toEqual([
      { path: "a.txt", content: "abc", binary: false, bytes: 3, clipped: false },
      { path: "b.txt", content: "de", binary: false, bytes: 5, clipped: true },
      { path: "c.txt", content: undefined, binary: false, bytes: 2, clipped: true },
    ]);
  });

  it("names binary and invalid UTF-8 files without their text", async () => {
    await outputs({
      "nul.bin": Buffer.from([0x41, 0x00, 0x42]),
      "latin1.txt": Buffer.from([0x63, 0xe9, 0x41]),
    });
    expect(await readOutputFiles(dir)).toEqual([
      { path: "latin1.txt", content: undefined, binary: true, bytes: 3, clipped: false },
      { path: "nul.bin", content: undefined, binary: true, bytes: 3, clipped: false },
    ]);
  });

  it("drops a byte order mark and keeps a character cut at the read's end from making a file binary", async () => {
    await outputs({ "bom.txt": "\uFEFFhi", "accents.txt": "aéééé" });
    expect(await readOutputFiles(dir, { maxFileChars: 1 })).toEqual([
      { path: "accents.txt", content: "a", binary: false, bytes: 9, clipped: true },
      { path: "bom.txt", content: "h", binary: false, bytes: 5, clipped: true },
    ]);
  });
});
