import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTranscript } from "../../src/report/run-transcript.js";
import { tempDir, writeFiles } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
const text = "# t\n\n## Step 1\n\n**Tool call: Read**\n\nété ✓\n";

beforeAll(async () => {
  ws = await tempDir();
  await writeFiles(ws.dir, { "transcript.md": text, "folder/x": "" });
});
afterAll(() => ws.cleanup());

describe("readTranscript", () => {
  it("reads the whole file when it fits", async () => {
    expect(await readTranscript(join(ws.dir, "transcript.md"), 1000)).toEqual({
      text,
      size: Buffer.byteLength(text),
      truncated: false,
    });
  });

  it("keeps whole lines up to the limit and says it cut", async () => {
    const limit = text.indexOf("**Tool") + 5;
    const read = await readTranscript(join(ws.dir, "transcript.md"), limit);
    expect(read).toEqual({ text: "# t\n\n## Step 1\n\n", size: Buffer.byteLength(text), truncated: true });
  });

  it("is null without a file", async () => {
    expect(await readTranscript(join(ws.dir, "none.md"), 1000)).toBeNull();
    expect(await readTranscript(join(ws.dir, "folder"), 1000)).toBeNull();
  });
});
