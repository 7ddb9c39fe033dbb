import { createHash } from "node:crypto";
import { rm, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffManifest, takeManifest } from "../../src/workspace/index.js";
import { makeTempDir, removeDir, writeTree } from "./tree.js";

describe("takeManifest and diffManifest", () => {
  let dir: string;

  beforeEach(async () => {
    dir = await makeTempDir("manifest");
    await writeTree(dir, {
      "keep.txt": "unchanged",
      "same-size.txt": "aaaa",
      "touched.txt": "same content",
      "gone.txt": "bye",
      "sub/deep.md": "deep",
      ".claude/skills/my-skill/SKILL.md": "skill",
    });
  });
  afterEach(async () => removeDir(dir));

  it("lists regular files by POSIX path with size and sha256", async () => {
    const manifest = await takeManifest(dir);
    expect([...manifest.keys()].sort()).toEqual([
      ".claude/skills/my-skill/SKILL.md",
      "gone.txt",
      "keep.txt",
      "same-size.txt",
      "sub/deep.md",
      "touched.txt",
    ]);
    expect(manifest.get("sub/deep.md")).toMatchObject({
      size: 4,
      hash: createHash("sha256").update("deep").digest("hex"),
    });
  });

  it("finds created, modified (same size, new content) and deleted files, sorted", async () => {
    const before = await takeManifest(dir);
    await writeFile(path.join(dir, "same-size.txt"), "bbbb");
    await rm(path.join(dir, "gone.txt"));
    await writeTree(dir, { "z-new.txt": "new", "sub/new/a.txt": "a", "a-new.txt": "a" });
    const future = new Date(Date.now() + 60_000);
    await utimes(path.join(dir, "touched.txt"), future, future);
    const diff = diffManifest(before, await takeManifest(dir));
    expect(diff).toEqual({
      created: ["a-new.txt", "sub/new/a.txt", "z-new.txt"],
      modified: ["same-size.txt"],
      deleted: ["gone.txt"],
    });
  });

  it("leaves out excluded prefixes with everything under them, and only at folder boundaries", async () => {
    await writeTree(dir, { ".claude/skills-notes.md": "kept" });
    const manifest = await takeManifest(dir, { exclude: [".claude/skills/"] });
    expect(manifest.has(".claude/skills/my-skill/SKILL.md")).toBe(false);
    expect(manifest.has(".claude/skills-notes.md")).toBe(true);
  });

  it("hashes large files by streaming them", async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 7);
    await writeFile(path.join(dir, "big.bin"), big);
    const before = await takeManifest(dir);
    big[big.length - 1] = 8;
    await writeFile(path.join(dir, "big.bin"), big);
    const after = await takeManifest(dir);
    expect(after.get("big.bin")?.size).toBe(big.length);
    expect(diffManifest(before, after).modified).toEqual(["big.bin"]);
  });
});
