import { mkdir, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectOutputs, diffManifest, takeManifest } from "../../src/workspace/index.js";
import { openFileCount } from "./open-files.js";
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

describe("collectOutputs on what a changed path has become", () => {
  let root: string;
  let workspace: string;
  let outputs: string;

  beforeEach(async () => {
    root = await makeTempDir("collect-kinds");
    workspace = path.join(root, "workspace");
    outputs = path.join(root, "outputs");
    await writeTree(workspace, { "kept.md": "kept" });
  });
  afterEach(async () => removeDir(root));

  it("skips a link put in a changed file's place, and a folder", async () => {
    await symlink("kept.md", path.join(workspace, "link.md"));
    await mkdir(path.join(workspace, "folder"));
    const collected = await collectOutputs(
      workspace,
      { created: ["folder", "kept.md", "link.md"], modified: [] },
      outputs,
    );
    expect(collected).toEqual({ files: ["kept.md"], chars: 4, collisions: [] });
    expect(await listTree(outputs)).toEqual(["kept.md"]);
  });

  it("replaces a folder left at a file's place in the outputs", async () => {
    await writeTree(outputs, { "kept.md/old.txt": "old" });
    const collected = await collectOutputs(workspace, { created: ["kept.md"], modified: [] }, outputs);
    expect(collected.files).toEqual(["kept.md"]);
    expect(await readText(outputs, "kept.md")).toBe("kept");
  });

  it("counts the bytes of a file that ends inside a UTF-8 sequence", async () => {
    await writeTree(workspace, { "cut.txt": new Uint8Array([0x61, 0x62, 0xe2, 0x82]) });
    const collected = await collectOutputs(workspace, { created: ["cut.txt"], modified: [] }, outputs);
    expect(collected.chars).toBe(4);
  });

  it("counts a character split across two read chunks as one", async () => {
    await writeTree(workspace, { "long.txt": `${"a".repeat(64 * 1024 - 1)}éb` });
    const collected = await collectOutputs(workspace, { created: ["long.txt"], modified: [] }, outputs);
    expect(collected.chars).toBe(64 * 1024 + 1);
  });

  it("refuses a changed path that climbs out, naming it", async () => {
    const error = await collectOutputs(workspace, { created: ["../secret"], modified: [] }, outputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: "WORKSPACE",
      message: `Changed file "../secret" must be a relative path inside ${workspace}`,
    });
  });

  it("reports a file it cannot open as a workspace error, and never takes it for a vanished one", async () => {
    const name = "n".repeat(256);
    const error = await collectOutputs(workspace, { created: [name], modified: [] }, outputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: "WORKSPACE",
      message: `Could not collect the outputs of ${workspace}: ENAMETOOLONG: name too long, open '${path.join(workspace, name)}'`,
    });
  });

  it("reports an outputs folder it cannot make as a workspace error", async () => {
    const blocked = path.join(workspace, "kept.md", "outputs");
    const error = await collectOutputs(workspace, { created: ["kept.md"], modified: [] }, blocked).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: "WORKSPACE",
      message: `Could not collect the outputs of ${workspace}: ENOTDIR: not a directory, mkdir '${blocked}'`,
    });
  });

  it("closes every file it copies", async () => {
    await writeTree(workspace, { "a.md": "a", "b/c.md": "c" });
    const open = await openFileCount();
    await collectOutputs(workspace, { created: ["a.md", "b/c.md"], modified: ["kept.md"] }, outputs);
    expect(await openFileCount()).toBe(open);
  });
});
