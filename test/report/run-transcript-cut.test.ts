import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTranscript } from "../../src/report/run-transcript.js";
import { tempDir, writeFiles } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  ws = await tempDir();
  await writeFiles(ws.dir, {
    "exact.md": "ab\ncd\n",
    "first-break.md": "\nabcdef\n",
    "no-break.md": "abcdef",
  });
});
afterAll(() => ws.cleanup());

// Where a transcript is cut: exact texts at the edges of the limit.
describe("readTranscript at its limit", () => {
  it("reads a file of exactly the limit whole", async () => {
    expect(await readTranscript(join(ws.dir, "exact.md"), 6)).toEqual({
      text: "ab\ncd\n",
      size: 6,
      truncated: false,
    });
  });

  it("cuts one byte short at the last line break", async () => {
    expect(await readTranscript(join(ws.dir, "exact.md"), 5)).toEqual({
      text: "ab\n",
      size: 6,
      truncated: true,
    });
  });

  it("keeps the bytes read when the only break is the first byte or there is none", async () => {
    expect(await readTranscript(join(ws.dir, "first-break.md"), 4)).toEqual({
      text: "\nabc",
      size: 8,
      truncated: true,
    });
    expect(await readTranscript(join(ws.dir, "no-break.md"), 3)).toEqual({
      text: "abc",
      size: 6,
      truncated: true,
    });
  });
});
