import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJsonIfPresent, writeJson } from "../../src/runlog/atomic-write.js";

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
