import { chmod, mkdir, stat, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyFileReplacing, ensureDir } from "../../src/workspace/copy-tree.js";
import { copyTree } from "../../src/workspace/index.js";
import { listTree, makeTempDir, readText, removeDir, writeTree } from "./tree.js";

const onWindows = process.platform === "win32";

describe("copyTree", () => {
  let root: string;
  let src: string;
  let dest: string;

  beforeEach(async () => {
    root = await makeTempDir("copy");
    src = path.join(root, "src");
    dest = path.join(root, "dest");
    await mkdir(src);
  });
  afterEach(async () => removeDir(root));

  it("copies files and folders, overwriting files and merging folders already in dest", async () => {
    await writeTree(src, { "a.txt": "new a", "sub/b.txt": "new b", "empty/": "" });
    await writeTree(dest, { "a.txt": "old a", "sub/keep.txt": "kept", "other.txt": "other" });
    await copyTree(src, dest);
    expect(await listTree(dest)).toEqual(["a.txt", "empty/", "other.txt", "sub/b.txt", "sub/keep.txt"]);
    expect(await readText(dest, "a.txt")).toBe("new a");
    expect(await readText(dest, "sub/keep.txt")).toBe("kept");
  });

  it("replaces a file with a folder and a folder with a file when a later layer says so", async () => {
    await writeTree(src, { "was-file/inside.txt": "x", "was-dir": "now a file" });
    await writeTree(dest, { "was-file": "a file", "was-dir/old.txt": "old" });
    await copyTree(src, dest);
    expect(await listTree(dest)).toEqual(["was-dir", "was-file/inside.txt"]);
    expect(await readText(dest, "was-dir")).toBe("now a file");
  });

  it("passes POSIX paths and the folder flag to skip, and leaves out what it skips", async () => {
    await writeTree(src, { "a/b/c.txt": "c", "a/d.txt": "d", "e.txt": "e" });
    const seen: string[] = [];
    await copyTree(src, dest, {
      skip: (rel, isDir) => {
        seen.push(`${rel}${isDir ? "/" : ""}`);
        return rel === "a/b";
      },
    });
    expect(seen).toEqual(["a/", "a/b/", "a/d.txt", "e.txt"]);
    expect(await listTree(dest)).toEqual(["a/d.txt", "e.txt"]);
  });

  it.skipIf(onWindows)("keeps the executable bit", async () => {
    await writeTree(src, { "run.sh": "#!/bin/sh\necho hi\n", "plain.txt": "x" });
    await chmod(path.join(src, "run.sh"), 0o755);
    await chmod(path.join(src, "plain.txt"), 0o640);
    await copyTree(src, dest);
    expect((await stat(path.join(dest, "run.sh"))).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(dest, "plain.txt"))).mode & 0o777).toBe(0o640);
  });

  it.skipIf(onWindows)("overwrites a read-only file of an earlier layer", async () => {
    await writeTree(src, { "locked.txt": "new" });
    await writeTree(dest, { "locked.txt": "old" });
    await chmod(path.join(dest, "locked.txt"), 0o444);
    await copyTree(src, dest);
    expect(await readText(dest, "locked.txt")).toBe("new");
  });

  it.skipIf(onWindows)(
    "copies what links inside the tree point to, and skips links leading out",
    async () => {
      const outside = path.join(root, "outside");
      await writeTree(outside, { "secret.txt": "secret" });
      await writeTree(src, { "real/file.txt": "real", "target.txt": "target" });
      await symlink("target.txt", path.join(src, "link-to-file"));
      await symlink("real", path.join(src, "link-to-dir"));
      await symlink(path.join(outside, "secret.txt"), path.join(src, "link-out-file"));
      await symlink(outside, path.join(src, "link-out-dir"));
      await symlink("missing.txt", path.join(src, "dangling"));
      await symlink(".", path.join(src, "loop"));
      await copyTree(src, dest);
      expect(await listTree(dest)).toEqual([
        "link-to-dir/file.txt",
        "link-to-file",
        "real/file.txt",
        "target.txt",
      ]);
      const copied = await stat(path.join(dest, "link-to-file"));
      expect(copied.isFile()).toBe(true);
      expect(await readText(dest, "link-to-file")).toBe("target");
    },
  );

  it.skipIf(onWindows)("never writes through a link it finds in the destination", async () => {
    const victim = path.join(root, "victim.txt");
    await writeFile(victim, "user data");
    await writeTree(src, { "x.txt": "from src" });
    await mkdir(dest);
    await symlink(victim, path.join(dest, "x.txt"));
    await copyTree(src, dest);
    expect(await readText(root, "victim.txt")).toBe("user data");
    expect(await readText(dest, "x.txt")).toBe("from src");
  });

  it("does not copy the destination into itself when it lies inside the source", async () => {
    await writeTree(src, { "a.txt": "a" });
    const inner = path.join(src, "runs", "run-1");
    await copyTree(src, inner);
    expect(await listTree(inner)).toEqual(["a.txt", "runs/"]);
  });

  it("refuses to copy a folder onto itself", async () => {
    await writeTree(src, { "a.txt": "a" });
    await expect(copyTree(src, src)).rejects.toMatchObject({
      code: "WORKSPACE",
      message: `Cannot copy ${src} onto itself (${src})`,
      hint: "choose a workspace folder outside the folder being copied",
    });
  });

  it.skipIf(onWindows)("skips a socket", async () => {
    await writeTree(src, { "a.txt": "a" });
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path.join(src, "agent.sock"), resolve));
    try {
      await copyTree(src, dest);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await listTree(dest)).toEqual(["a.txt"]);
  });

  it.skipIf(onWindows)("skips a link to a folder it is copying, deeper than the root", async () => {
    await writeTree(src, { "a/b/c.txt": "c" });
    await symlink("..", path.join(src, "a", "b", "up"));
    await copyTree(src, dest);
    expect(await listTree(dest)).toEqual(["a/b/c.txt"]);
  });
});

describe("ensureDir and copyFileReplacing", () => {
  let root: string;

  beforeEach(async () => {
    root = await makeTempDir("copy-parts");
  });
  afterEach(async () => removeDir(root));

  it("makes a folder with the parents it lacks", async () => {
    await ensureDir(path.join(root, "a", "b", "c"));
    expect(await listTree(root)).toEqual(["a/b/c/"]);
  });

  it("leaves the file in place when the copy fails", async () => {
    await writeTree(root, { "dest.txt": "kept" });
    await expect(
      copyFileReplacing(path.join(root, "missing.txt"), path.join(root, "dest.txt")),
    ).rejects.toMatchObject({ code: "ENOENT" });
    expect(await readText(root, "dest.txt")).toBe("kept");
  });
});
