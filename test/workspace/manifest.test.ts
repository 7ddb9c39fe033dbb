import { createHash } from "node:crypto";
import { rm, symlink, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffManifest, takeManifest } from "../../src/workspace/index.js";
import { openFileCount, SCRAMBLED_NAMES } from "./open-files.js";
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

  it("leaves out a file gone by the time it is read, as one whose listed name opens nothing", async () => {
    // A name that is not UTF-8 is listed as U+FFFD, a name no file has.
    await writeFile(Buffer.concat([Buffer.from(`${dir}/sub/`), Buffer.from([0xff])]), "x");
    const manifest = await takeManifest(dir);
    expect([...manifest.keys()].filter((key) => key.startsWith("sub/"))).toEqual(["sub/deep.md"]);
  });

  it("reports a file it cannot open for a reason other than its being gone, as a workspace error", async () => {
    // 200 bytes that are not UTF-8 are listed as 200 U+FFFD of three bytes each: a name too long to open.
    await writeFile(Buffer.concat([Buffer.from(`${dir}/sub/`), Buffer.alloc(200, 0xff)]), "x");
    await expect(takeManifest(dir)).rejects.toMatchObject({
      code: "WORKSPACE",
      message: expect.stringContaining(`Could not list the workspace ${dir}: ENAMETOOLONG`),
    });
  });

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

  it("reads excluded prefixes without leading ./ or trailing slashes", async () => {
    await writeTree(dir, { "v1./cache/a.txt": "dropped", "v1cache/b.txt": "kept" });
    const manifest = await takeManifest(dir, { exclude: ["././.claude/skills//", "v1./cache"] });
    expect([...manifest.keys()].sort()).toEqual([
      "gone.txt",
      "keep.txt",
      "same-size.txt",
      "sub/deep.md",
      "touched.txt",
      "v1cache/b.txt",
    ]);
  });

  it("neither lists nor follows symbolic links", async () => {
    await symlink("keep.txt", path.join(dir, "link.txt"));
    await symlink("sub", path.join(dir, "link-dir"));
    const manifest = await takeManifest(dir, { exclude: [".claude"] });
    expect([...manifest.keys()].sort()).toEqual([
      "gone.txt",
      "keep.txt",
      "same-size.txt",
      "sub/deep.md",
      "touched.txt",
    ]);
  });

  it("reports a folder it cannot list as a workspace error naming it", async () => {
    const missing = path.join(dir, "missing");
    const error = await takeManifest(missing).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: "WORKSPACE",
      message: `Could not list the workspace ${missing}: ENOENT: no such file or directory, scandir '${missing}'`,
    });
  });

  it("closes every file it reads, small or streamed", async () => {
    await writeFile(path.join(dir, "big.bin"), Buffer.alloc(5 * 1024 * 1024, 1));
    const open = await openFileCount();
    await takeManifest(dir);
    expect(await openFileCount()).toBe(open);
  });

  it("sorts each list by the whole path, whatever order the folder lists its files in", async () => {
    await rm(path.join(dir, "sub"), { recursive: true });
    for (const name of SCRAMBLED_NAMES)
      await writeTree(dir, { [`old/${name}`]: name, [`edit/${name}`]: name });
    await writeTree(dir, { "a/b.txt": "", "a-c.txt": "", "m/b.txt": "1", "m-c.txt": "1" });
    const before = await takeManifest(dir, { exclude: [".claude"] });
    await rm(path.join(dir, "old"), { recursive: true });
    await rm(path.join(dir, "a"), { recursive: true });
    await rm(path.join(dir, "a-c.txt"));
    for (const name of SCRAMBLED_NAMES)
      await writeTree(dir, { [`new/${name}`]: name, [`edit/${name}`]: `${name}!` });
    await writeTree(dir, { "n/b.txt": "", "n-c.txt": "", "m/b.txt": "2", "m-c.txt": "2" });
    const diff = diffManifest(before, await takeManifest(dir, { exclude: [".claude"] }));
    const sorted = [...SCRAMBLED_NAMES].sort();
    expect(diff).toEqual({
      created: ["n-c.txt", "n/b.txt", ...sorted.map((name) => `new/${name}`)],
      modified: [...sorted.map((name) => `edit/${name}`), "m-c.txt", "m/b.txt"],
      deleted: ["a-c.txt", "a/b.txt", ...sorted.map((name) => `old/${name}`)],
    });
  });
});
