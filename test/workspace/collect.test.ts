import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectOutputs, diffManifest, takeManifest } from "../../src/workspace/index.js";
import { listTree, makeTempDir, readText, removeDir, writeTree } from "./tree.js";

describe("collectOutputs", () => {
  let root: string;
  let workspace: string;
  let outputs: string;

  beforeEach(async () => {
    root = await makeTempDir("collect");
    workspace = path.join(root, "workspace");
    outputs = path.join(root, "run-1", "outputs");
    await writeTree(workspace, {
      "input.md": "given",
      "edit-me.md": "before",
      "delete-me.md": "x",
      ".claude/skills/my-skill/SKILL.md": "skill",
    });
  });
  afterEach(async () => removeDir(root));

  it("copies exactly the created and modified files, at their relative paths", async () => {
    const before = await takeManifest(workspace, { exclude: [".claude/skills"] });
    await writeTree(workspace, {
      "report/summary.md": "héllo",
      "edit-me.md": "after!",
      "unchanged-dir/": "",
    });
    await writeFile(path.join(workspace, "delete-me.md"), "x"); // rewritten with the same content: not changed
    const changes = diffManifest(before, await takeManifest(workspace, { exclude: [".claude/skills"] }));
    const collected = await collectOutputs(workspace, changes, outputs);
    expect(collected.files).toEqual(["edit-me.md", "report/summary.md"]);
    expect(await listTree(outputs)).toEqual(["edit-me.md", "report/summary.md"]);
    expect(await readText(outputs, "report/summary.md")).toBe("héllo");
    expect(collected.chars).toBe("after!".length + "héllo".length);
    expect(collected.collisions).toEqual([]);
  });

  it("counts characters of UTF-8 files and bytes of binary ones", async () => {
    await writeTree(workspace, {
      "emoji.txt": "a😀b",
      "image.bin": new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00]),
    });
    const collected = await collectOutputs(
      workspace,
      { created: ["emoji.txt", "image.bin"], modified: [] },
      outputs,
    );
    expect(collected.chars).toBe(3 + 5);
  });

  it("copies an agent's metrics.json at the outputs root and reports the collision", async () => {
    await writeTree(workspace, { "metrics.json": '{"mine":true}', "sub/metrics.json": "{}" });
    const collected = await collectOutputs(
      workspace,
      { created: ["metrics.json", "sub/metrics.json"], modified: [] },
      outputs,
    );
    expect(collected.collisions).toEqual(["metrics.json"]);
    expect(await readText(outputs, "metrics.json")).toBe('{"mine":true}');
  });

  it("skips a file that vanished since the manifest, and refuses paths that climb out", async () => {
    const collected = await collectOutputs(workspace, { created: ["never-there.md"], modified: [] }, outputs);
    expect(collected).toEqual({ files: [], chars: 0, collisions: [] });
    await expect(
      collectOutputs(workspace, { created: ["../secret"], modified: [] }, outputs),
    ).rejects.toMatchObject({
      code: "WORKSPACE",
    });
  });
});
