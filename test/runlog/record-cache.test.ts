import { mkdir, mkdtemp, rm, truncate, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createJsonCache } from "../../src/runlog/record-cache.js";

const Point = z.object({ x: z.number(), y: z.number(), label: z.string() });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "record-cache-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const fixedTime = new Date("2020-01-01T00:00:00Z");

// Writes a file with one fixed modification time, so text of the same length keeps the file's stamp.
async function writeStamped(file: string, text: string): Promise<void> {
  await writeFile(file, text);
  await utimes(file, fixedTime, fixedTime);
}

describe("reading JSON files through a cache", () => {
  it("gives the value of a file of the schema's shape", async () => {
    const file = join(dir, "point.json");
    await writeFile(file, JSON.stringify({ x: 1, y: 2, label: "a" }));
    const cache = createJsonCache();
    expect(await cache.read(file, Point)).toEqual({ state: "ok", value: { x: 1, y: 2, label: "a" } });
    expect(await cache.value(file, Point)).toEqual({ x: 1, y: 2, label: "a" });
  });

  it("calls a file that is not there, or a folder, missing", async () => {
    const cache = createJsonCache();
    await mkdir(join(dir, "folder.json"));
    expect(await cache.read(join(dir, "absent.json"), Point)).toEqual({ state: "missing" });
    expect(await cache.read(join(dir, "folder.json"), Point)).toEqual({ state: "missing" });
    expect(await cache.value(join(dir, "absent.json"), Point)).toBeUndefined();
  });

  it("calls a file of invalid JSON broken and quotes the parser", async () => {
    const file = join(dir, "point.json");
    await writeFile(file, "{ nope");
    const cache = createJsonCache();
    let parserMessage = "";
    try {
      JSON.parse("{ nope");
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    expect(await cache.read(file, Point)).toEqual({
      state: "broken",
      problem: `not valid JSON (${parserMessage})`,
    });
    expect(await cache.value(file, Point)).toBeUndefined();
  });

  it("calls a file that cannot be read broken, as unreadable", async () => {
    // Past what one read may take (2 GiB), held as a sparse file, so nothing is written or read.
    const file = join(dir, "huge.json");
    await writeFile(file, "");
    await truncate(file, 3 * 2 ** 30);
    const cache = createJsonCache();
    expect(await cache.read(file, Point)).toEqual({ state: "broken", problem: "unreadable" });
  });

  it("names at most three fields of the wrong shape, and the top for a wrong whole", async () => {
    const cache = createJsonCache();
    const fields = join(dir, "fields.json");
    await writeFile(fields, JSON.stringify({ x: "1", y: "2", label: 3, extra: { deep: 1 } }));
    const Deep = Point.extend({ extra: z.object({ deep: z.string() }) });
    expect(await cache.read(fields, Deep)).toEqual({
      state: "broken",
      problem:
        "x: Invalid input: expected number, received string; " +
        "y: Invalid input: expected number, received string; " +
        "label: Invalid input: expected string, received number",
    });
    const nested = join(dir, "nested.json");
    await writeFile(nested, JSON.stringify({ x: 1, y: 2, label: "a", extra: { deep: 1 } }));
    expect(await cache.read(nested, Deep)).toEqual({
      state: "broken",
      problem: "extra.deep: Invalid input: expected string, received number",
    });
    const whole = join(dir, "whole.json");
    await writeFile(whole, "[1]");
    expect(await cache.read(whole, Point)).toEqual({
      state: "broken",
      problem: "(top): Invalid input: expected object, received array",
    });
  });

  it("re-reads a file whose size changed and keeps the result of an unchanged one", async () => {
    const file = join(dir, "point.json");
    await writeStamped(file, JSON.stringify({ x: 1, y: 2, label: "a" }));
    const cache = createJsonCache();
    const first = await cache.read(file, Point);
    expect(await cache.read(file, Point)).toBe(first);

    await writeStamped(file, JSON.stringify({ x: 7, y: 2, label: "a" }));
    expect(await cache.value(file, Point)).toEqual({ x: 1, y: 2, label: "a" });

    await writeFile(file, JSON.stringify({ x: 10, y: 2, label: "a" }));
    expect(await cache.value(file, Point)).toEqual({ x: 10, y: 2, label: "a" });
  });

  it("checks a cached file again for another schema", async () => {
    const file = join(dir, "point.json");
    await writeFile(file, JSON.stringify({ x: 1, y: 2, label: "a" }));
    const cache = createJsonCache();
    expect(await cache.value(file, Point)).toEqual({ x: 1, y: 2, label: "a" });
    expect(await cache.value(file, z.object({ x: z.number() }))).toEqual({ x: 1 });
  });

  it("forgets the least recently loaded file beyond its size, and only then", async () => {
    const a = join(dir, "a.json");
    const b = join(dir, "b.json");
    await writeStamped(a, JSON.stringify({ x: 1, y: 2, label: "a" }));
    await writeStamped(b, JSON.stringify({ x: 3, y: 4, label: "b" }));

    const small = createJsonCache(1);
    await small.read(a, Point);
    await small.read(b, Point);
    await writeStamped(a, JSON.stringify({ x: 5, y: 2, label: "a" }));
    await writeStamped(b, JSON.stringify({ x: 6, y: 4, label: "b" }));
    expect(await small.value(a, Point)).toEqual({ x: 5, y: 2, label: "a" });
    expect(await small.value(b, Point)).toEqual({ x: 6, y: 4, label: "b" });

    const exact = createJsonCache(2);
    await exact.read(a, Point);
    await exact.read(b, Point);
    await writeStamped(a, JSON.stringify({ x: 8, y: 2, label: "a" }));
    await writeStamped(b, JSON.stringify({ x: 9, y: 4, label: "b" }));
    expect(await exact.value(a, Point)).toEqual({ x: 5, y: 2, label: "a" });
    expect(await exact.value(b, Point)).toEqual({ x: 6, y: 4, label: "b" });
  });

  it("counts a re-loaded file as the most recent one", async () => {
    const a = join(dir, "a.json");
    const b = join(dir, "b.json");
    const c = join(dir, "c.json");
    await writeStamped(a, JSON.stringify({ x: 1, y: 2, label: "a" }));
    await writeStamped(b, JSON.stringify({ x: 3, y: 4, label: "b" }));
    await writeStamped(c, JSON.stringify({ x: 5, y: 6, label: "c" }));
    const cache = createJsonCache(2);
    await cache.read(a, Point);
    await cache.read(b, Point);
    await writeStamped(a, JSON.stringify({ x: 10, y: 2, label: "a" }));
    await cache.read(a, Point);
    await cache.read(c, Point);

    await writeStamped(a, JSON.stringify({ x: 11, y: 2, label: "a" }));
    await writeStamped(b, JSON.stringify({ x: 7, y: 4, label: "b" }));
    expect(await cache.value(a, Point)).toEqual({ x: 10, y: 2, label: "a" });
    expect(await cache.value(b, Point)).toEqual({ x: 7, y: 4, label: "b" });
  });
});
