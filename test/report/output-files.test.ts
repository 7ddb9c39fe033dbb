import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultLimits, readOutputs } from "../../src/report/output-files.js";
import { tempDir, writeFiles } from "./workspace-fixture.js";

// Which bytes decide that a file of no known extension is text, how many files are listed and how many left out.
let ws: Awaited<ReturnType<typeof tempDir>>;
const outs = () => join(ws.dir, "run", "outputs");

beforeAll(async () => {
  ws = await tempDir("skillgym-output-files-");
  await writeFiles(outs(), {
    // A NUL past the text shown but within the first 8 KiB: binary.
    "a.dat": Buffer.from("abcdefgh\0ij"),
    // A NUL past the first 8 KiB: text.
    "b.dat": Buffer.from(`${"a".repeat(9000)}\0`),
    "c.txt": "three",
    "d.txt": "four",
    "metrics.json": JSON.stringify({ total_steps: 1 }),
  });
});

afterAll(async () => {
  await ws?.cleanup();
});

describe("readOutputs", () => {
  it("tells text from binary by the first 8 KiB, however little text is shown", async () => {
    const { files } = await readOutputs(outs(), { root: ws.dir, limits: { maxTextBytes: 4 } });
    expect(files.map((f) => [f.path, f.kind, f.text ?? null, f.truncated ?? false])).toEqual([
      ["a.dat", "binary", null, false],
      ["b.dat", "text", "aaaa", true],
      ["c.txt", "text", "thre", true],
      ["d.txt", "text", "four", false],
    ]);
    expect(files[0]?.url).toBe(
      `data:application/octet-stream;base64,${Buffer.from("abcdefgh\0ij").toString("base64")}`,
    );
    const whole = await readOutputs(outs(), { root: ws.dir, limits: { maxTextBytes: 10_000 } });
    expect(whole.files[1]?.kind).toBe("text");
    expect(whole.files[1]?.text).toHaveLength(9001);
  });

  it("lists up to the file limit and counts the files left out", async () => {
    const two = await readOutputs(outs(), { root: ws.dir, limits: { maxFiles: 2 } });
    expect([two.files.map((f) => f.path), two.omitted]).toEqual([["a.dat", "b.dat"], 2]);
    const all = await readOutputs(outs(), { root: ws.dir });
    expect([all.files.length, all.omitted]).toEqual([4, 0]);
  });

  it("leaves out a file it cannot describe and shows the others", async () => {
    const { files } = await readOutputs(outs(), {
      root: ws.dir,
      urlFor: (path) => {
        if (path.endsWith("c.txt")) throw new Error("no link for it");
        return `/api/file?path=${path}`;
      },
    });
    expect(files.map((f) => [f.path, f.url])).toEqual([
      ["a.dat", "/api/file?path=run/outputs/a.dat"],
      ["b.dat", "/api/file?path=run/outputs/b.dat"],
      ["d.txt", "/api/file?path=run/outputs/d.txt"],
    ]);
  });

  it("lists files in the order a person browses them, numbers in order", async () => {
    const dir = join(ws.dir, "numbered", "outputs");
    await writeFiles(dir, { "file10.txt": "10", "file2.txt": "2", "B.txt": "b", "a.txt": "a" });
    const { files } = await readOutputs(dir, { root: ws.dir });
    expect(files.map((f) => f.path)).toEqual(["a.txt", "B.txt", "file2.txt", "file10.txt"]);
  });

  it("keeps limits the source does not set at their defaults", async () => {
    expect(defaultLimits).toEqual({
      maxTextBytes: 200_000,
      maxFiles: 200,
      maxEmbedBytes: 2_000_000,
      maxTranscriptBytes: 256_000,
    });
    const { files } = await readOutputs(outs(), { root: ws.dir, limits: { maxFiles: 4 } });
    expect(files[1]?.truncated).toBeUndefined();
    expect(files[0]?.url).toMatch(/^data:application\/octet-stream;base64,/);
  });
});
