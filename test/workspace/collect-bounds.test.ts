import { appendFileSync } from "node:fs";
import { mkdir, readFile, stat, truncate, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRedactor } from "../../src/redact.js";
import {
  type CollectBounds,
  CollectStopped,
  collectOutputs,
  DEFAULT_OUTPUT_LIMITS,
  type OutputLimits,
} from "../../src/workspace/index.js";
import { makeTempDir, removeDir } from "./tree.js";

const KEY = "sk-test-SECRET-4e8d2a6c";
const MARKER = "[redacted:ANTHROPIC_API_KEY]";
const CHUNK = 64 * 1024;

function bounds(limits: Partial<OutputLimits>, deadlineAt?: number): CollectBounds {
  return {
    limits: { ...DEFAULT_OUTPUT_LIMITS, ...limits },
    ...(deadlineAt !== undefined ? { deadline: { at: deadlineAt, timeoutMs: 30_000 } } : {}),
  };
}

async function stopped(collect: Promise<unknown>): Promise<CollectStopped> {
  const error = await collect.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CollectStopped);
  return error as CollectStopped;
}

describe("collectOutputs within bounds", () => {
  let root: string;
  let workspace: string;
  let outputs: string;

  beforeEach(async () => {
    root = await makeTempDir("collect-bounds");
    workspace = path.join(root, "workspace");
    outputs = path.join(root, "outputs");
    await mkdir(workspace, { recursive: true });
  });
  afterEach(async () => removeDir(root));

  it("masks a key split across two read chunks, in a file larger than one chunk", async () => {
    for (const offset of [1, 7, KEY.length - 1]) {
      const body = Buffer.concat([
        Buffer.alloc(CHUNK - offset, "a"),
        Buffer.from(KEY),
        Buffer.alloc(CHUNK, "b"),
        Buffer.from(KEY),
      ]);
      await writeFile(path.join(workspace, "log.txt"), body);
      const collected = await collectOutputs(workspace, { created: ["log.txt"], modified: [] }, outputs, {
        redactor: createRedactor([{ name: "ANTHROPIC_API_KEY", value: KEY }]),
      });
      const copied = await readFile(path.join(outputs, "log.txt"), "latin1");
      expect(copied).not.toContain(KEY);
      expect(copied).toBe(`${"a".repeat(CHUNK - offset)}${MARKER}${"b".repeat(CHUNK)}${MARKER}`);
      expect(collected.chars).toBe(copied.length);
    }
  });

  it("copies a file larger than one chunk unchanged when there is nothing to mask", async () => {
    const body = Buffer.alloc(3 * CHUNK + 5);
    for (let i = 0; i < body.length; i++) body[i] = i % 251;
    await writeFile(path.join(workspace, "blob.bin"), body);
    const collected = await collectOutputs(workspace, { created: ["blob.bin"], modified: [] }, outputs);
    expect(await readFile(path.join(outputs, "blob.bin"))).toEqual(body);
    expect(collected.chars).toBe(body.length);
  });

  it("never reads a file over the largest size (it grew since the walk), and copies none of a sparse one", async () => {
    await writeFile(path.join(workspace, "big.bin"), "");
    await truncate(path.join(workspace, "big.bin"), 3 * 1024 ** 3);
    const error = await stopped(
      collectOutputs(workspace, { created: ["big.bin"], modified: [] }, outputs, { bounds: bounds({}) }),
    );
    expect(error.message).toContain("big.bin is 3.0 GB (apparent size)");
    await expect(stat(path.join(outputs, "big.bin"))).rejects.toThrow(/ENOENT/);
  });

  it("stops when the files together pass the total while being copied", async () => {
    await writeFile(path.join(workspace, "a.txt"), "x".repeat(600));
    await writeFile(path.join(workspace, "b.txt"), "y".repeat(600));
    const error = await stopped(
      collectOutputs(workspace, { created: ["a.txt", "b.txt"], modified: [] }, outputs, {
        bounds: bounds({ totalBytes: 1000 }),
      }),
    );
    expect(error.message).toContain("the total allowed is 1000 B (--max-output)");
    const exact = await collectOutputs(workspace, { created: ["a.txt", "b.txt"], modified: [] }, outputs, {
      bounds: bounds({ totalBytes: 1200 }),
    });
    expect(exact.files).toEqual(["a.txt", "b.txt"]);
  });

  it("stops once the deadline has passed", async () => {
    await writeFile(path.join(workspace, "a.txt"), "x");
    const error = await stopped(
      collectOutputs(workspace, { created: ["a.txt"], modified: [] }, outputs, {
        bounds: bounds({}, Date.now() - 1),
      }),
    );
    expect(error.code).toBe("COLLECT_TIMEOUT");
    expect(error.message).toContain("raise --timeout");
  });

  it("names the file it was copying when the deadline passed", async () => {
    await writeFile(path.join(workspace, "a.txt"), "x");
    const before = await stopped(
      collectOutputs(workspace, { created: ["a.txt"], modified: [] }, outputs, {
        bounds: bounds({}, Date.now() - 1),
      }),
    );
    expect(before.message).toBe(
      "collecting the outputs ran past the run's time limit of 30 s (copying a.txt); raise --timeout or the eval's timeout",
    );
    // Far off when the file is opened, past once its first chunk is due.
    let checks = 0;
    const deadline = {
      get at() {
        checks++;
        return checks <= 1 ? Number.POSITIVE_INFINITY : 0;
      },
      timeoutMs: 30_000,
    };
    const during = await stopped(
      collectOutputs(workspace, { created: ["a.txt"], modified: [] }, outputs, {
        bounds: { limits: DEFAULT_OUTPUT_LIMITS, deadline },
      }),
    );
    expect(during.message).toBe(before.message);
  });

  it("copies a file of exactly the largest size", async () => {
    await writeFile(path.join(workspace, "at.bin"), Buffer.alloc(100_000, 1));
    const collected = await collectOutputs(workspace, { created: ["at.bin"], modified: [] }, outputs, {
      bounds: bounds({ fileBytes: 100_000 }),
    });
    expect(collected.files).toEqual(["at.bin"]);
    expect((await stat(path.join(outputs, "at.bin"))).size).toBe(100_000);
  });

  it("stops reading a file that grows past the largest size while it is copied", async () => {
    const file = path.join(workspace, "grows.bin");
    await writeFile(file, Buffer.alloc(100_000, 1));
    // The file grows by one byte once its size was measured, before its first chunk is read.
    let checks = 0;
    const deadline = {
      get at() {
        checks++;
        if (checks === 2) appendFileSync(file, "x");
        return Number.POSITIVE_INFINITY;
      },
      timeoutMs: 30_000,
    };
    const error = await stopped(
      collectOutputs(workspace, { created: ["grows.bin"], modified: [] }, outputs, {
        bounds: { limits: { ...DEFAULT_OUTPUT_LIMITS, fileBytes: 100_000 }, deadline },
      }),
    );
    expect(error.message).toBe(
      "outputs over the limit: grows.bin is 98 KB (apparent size), the largest file allowed is 98 KB (--max-output-file)",
    );
  });

  it("counts the files copied whole when the total is passed", async () => {
    for (const name of ["a.txt", "b.txt", "c.txt"])
      await writeFile(path.join(workspace, name), "x".repeat(400));
    const error = await stopped(
      collectOutputs(workspace, { created: ["a.txt", "b.txt", "c.txt"], modified: [] }, outputs, {
        bounds: bounds({ totalBytes: 1000 }),
      }),
    );
    expect(error.message).toBe(
      "outputs over the limit: the files created or changed come to 1.2 KB or more (apparent size; counting stopped after 3 files), the total allowed is 1000 B (--max-output)",
    );
  });
});
