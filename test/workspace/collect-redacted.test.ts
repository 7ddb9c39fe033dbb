import { chmod, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRedactor } from "../../src/redact.js";
import { collectOutputs } from "../../src/workspace/index.js";
import { makeTempDir, removeDir, writeTree } from "./tree.js";

const KEY = "sk-test-SECRET-4e8d2a6c";
const MARKER = "[redacted:ANTHROPIC_API_KEY]";
const redactor = createRedactor([{ name: "ANTHROPIC_API_KEY", value: KEY }]);

describe("collectOutputs with a redactor", () => {
  let root: string;
  let workspace: string;
  let outputs: string;

  beforeEach(async () => {
    root = await makeTempDir("collect-redacted");
    workspace = path.join(root, "workspace");
    outputs = path.join(root, "outputs");
  });
  afterEach(async () => removeDir(root));

  it("masks the key in text and binary files, keeps the mode, counts the masked text", async () => {
    await writeTree(workspace, { "env.txt": `KEY=${KEY}\nHOME=/x\n`, "plain.md": "nothing secret" });
    await writeFile(path.join(workspace, "blob.bin"), Buffer.concat([Buffer.from([0, 1]), Buffer.from(KEY)]));
    await chmod(path.join(workspace, "env.txt"), 0o750);
    const collected = await collectOutputs(
      workspace,
      { created: ["env.txt", "plain.md", "blob.bin"], modified: [] },
      outputs,
      { redactor },
    );
    expect(collected.files).toEqual(["blob.bin", "env.txt", "plain.md"]);
    const text = `KEY=${MARKER}\nHOME=/x\n`;
    expect(await readFile(path.join(outputs, "env.txt"), "utf8")).toBe(text);
    expect(await readFile(path.join(outputs, "blob.bin"))).toEqual(Buffer.from(`\0\x01${MARKER}`, "latin1"));
    expect(await readFile(path.join(outputs, "plain.md"), "utf8")).toBe("nothing secret");
    expect((await stat(path.join(outputs, "env.txt"))).mode & 0o777).toBe(0o750);
    expect(collected.chars).toBe(text.length + "nothing secret".length + 2 + MARKER.length);
    // The workspace itself is left as the agent wrote it (checks grade it live).
    expect(await readFile(path.join(workspace, "env.txt"), "utf8")).toContain(KEY);
  });

  it("never writes through a link left at the destination", async () => {
    await writeTree(workspace, { "env.txt": KEY });
    const outside = path.join(root, "outside.txt");
    await writeFile(outside, "untouched");
    await mkdir(outputs, { recursive: true });
    await symlink(outside, path.join(outputs, "env.txt"));
    await collectOutputs(workspace, { created: ["env.txt"], modified: [] }, outputs, { redactor });
    expect(await readFile(outside, "utf8")).toBe("untouched");
    expect(await readFile(path.join(outputs, "env.txt"), "utf8")).toBe(MARKER);
  });

  it("skips a file gone since the manifest was taken", async () => {
    const collected = await collectOutputs(workspace, { created: ["gone.txt"], modified: [] }, outputs, {
      redactor,
    });
    expect(collected.files).toEqual([]);
  });
});
