import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  readJsonIfPresent,
  readTextIfPresent,
  writeJson,
  writeTextAtomically,
  writeUnderFreeName,
} from "../../src/runlog/atomic-write.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-write-json-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("writeJson / readJsonIfPresent", () => {
  it("writes indented JSON with a final newline and leaves no temp file", async () => {
    const file = join(dir, "a.json");
    await writeJson(file, { b: [1, 2], c: "x" });
    expect(await readFile(file, "utf8")).toBe('{\n  "b": [\n    1,\n    2\n  ],\n  "c": "x"\n}\n');
    expect(await readdir(dir)).toEqual(["a.json"]);
    await writeJson(file, { replaced: true });
    expect(await readJsonIfPresent(file)).toEqual({ replaced: true });
  });

  it("reads nothing from a missing or broken file", async () => {
    expect(await readJsonIfPresent(join(dir, "missing.json"))).toBeUndefined();
    const broken = join(dir, "broken.json");
    await writeFile(broken, "{ nope");
    expect(await readJsonIfPresent(broken)).toBeUndefined();
  });
});

describe("failed and guarded writes", () => {
  it("fails a write whose rename fails and leaves no temp file behind", async () => {
    const sub = await mkdtemp(join(dir, "rename-"));
    await mkdir(join(sub, "taken", "inside"), { recursive: true });
    await expect(writeTextAtomically(join(sub, "taken"), "x")).rejects.toThrow();
    expect(await readdir(sub)).toEqual(["taken"]);
  });

  it("fails a write into a missing folder with the write's own error", async () => {
    await expect(writeTextAtomically(join(dir, "absent", "a.txt"), "x")).rejects.toMatchObject({
      code: "ENOENT",
      syscall: "open",
    });
  });

  it("fails a write under a free name when a name cannot be linked for a reason other than being taken", async () => {
    const sub = await mkdtemp(join(dir, "free-"));
    await expect(writeUnderFreeName(sub, "x", [join(sub, "absent", "a.txt")])).rejects.toThrow();
    expect(await readdir(sub)).toEqual([]);
  });

  it("writes under a free name inside a folder whose own name is as long as a name may be", async () => {
    // The text is written aside inside the folder, not beside it, where the folder's long name would not fit.
    const sub = join(await mkdtemp(join(dir, "long-")), "f".repeat(250));
    await mkdir(sub);
    expect(await writeUnderFreeName(sub, "x", [join(sub, "a.txt")])).toBe(join(sub, "a.txt"));
    expect(await readdir(sub)).toEqual(["a.txt"]);
  });

  it("reads a present text file and nothing from a missing one", async () => {
    const file = join(dir, "present.txt");
    await writeFile(file, "hello");
    expect(await readTextIfPresent(file)).toBe("hello");
    expect(await readTextIfPresent(join(dir, "absent.txt"))).toBeUndefined();
  });
});
