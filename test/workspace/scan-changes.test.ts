import { appendFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdir, rm, symlink, truncate, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CollectBounds,
  CollectStopped,
  DEFAULT_OUTPUT_LIMITS,
  type OutputLimits,
  scanChanges,
  takeManifest,
} from "../../src/workspace/index.js";
import { openFileCount, SCRAMBLED_NAMES } from "./open-files.js";
import { makeTempDir, removeDir, writeTree } from "./tree.js";

const GB = 1024 ** 3;
const MB = 1024 ** 2;

function bounds(limits: Partial<OutputLimits>, deadlineAt?: number): CollectBounds {
  return {
    limits: { ...DEFAULT_OUTPUT_LIMITS, ...limits },
    ...(deadlineAt !== undefined ? { deadline: { at: deadlineAt, timeoutMs: 60_000 } } : {}),
  };
}

async function stopped(scan: Promise<unknown>): Promise<CollectStopped> {
  const error = await scan.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CollectStopped);
  return error as CollectStopped;
}

async function manyFiles(dir: string, count: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i += 500)
    await Promise.all(
      Array.from({ length: Math.min(500, count - i) }, (_, j) =>
        writeFile(path.join(dir, `f${i + j}.txt`), ""),
      ),
    );
}

describe("scanChanges", () => {
  let workspace: string;

  beforeEach(async () => {
    workspace = await makeTempDir("scan-changes");
    await writeTree(workspace, {
      "keep.md": "same",
      "touch.md": "same",
      "edit.md": "before",
      "delete.md": "x",
      ".claude/skills/s/SKILL.md": "skill",
    });
  });
  afterEach(async () => removeDir(workspace));

  it("finds created, modified and deleted files; a new modification time alone is no change", async () => {
    const before = await takeManifest(workspace, { exclude: [".claude/skills"] });
    await writeTree(workspace, { "edit.md": "after!", "new/out.txt": "made", ".claude/skills/s/x.md": "no" });
    await utimes(path.join(workspace, "touch.md"), new Date(), new Date(Date.now() + 5000));
    await removeDir(path.join(workspace, "delete.md"));
    const changes = await scanChanges(workspace, before, bounds({}), { exclude: [".claude/skills"] });
    expect(changes.created).toEqual(["new/out.txt"]);
    expect(changes.modified).toEqual(["edit.md"]);
    expect(changes.deleted).toEqual(["delete.md"]);
    expect(Object.fromEntries(changes.sizes)).toEqual({ "edit.md": 6, "new/out.txt": 4 });
  });

  it("measures a sparse file at its apparent size and stops at it without reading it", async () => {
    const before = await takeManifest(workspace);
    await mkdir(path.join(workspace, "out"));
    await writeFile(path.join(workspace, "out/big.bin"), "");
    await truncate(path.join(workspace, "out/big.bin"), 3 * GB);
    const started = Date.now();
    const error = await stopped(scanChanges(workspace, before, bounds({})));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.code).toBe("OUTPUT_LIMIT");
    expect(error.message).toBe(
      "outputs over the limit: out/big.bin is 3.0 GB (apparent size), the largest file allowed is 50 MB (--max-output-file)",
    );
  });

  it("allows a file of exactly the largest size, and refuses one byte more", async () => {
    const before = await takeManifest(workspace);
    await writeFile(path.join(workspace, "at.bin"), "");
    await truncate(path.join(workspace, "at.bin"), 1 * MB);
    const changes = await scanChanges(workspace, before, bounds({ fileBytes: MB }));
    expect(changes.created).toEqual(["at.bin"]);
    await truncate(path.join(workspace, "at.bin"), MB + 1);
    expect((await stopped(scanChanges(workspace, before, bounds({ fileBytes: MB })))).message).toContain(
      "at.bin is 1.0 MB",
    );
  });

  it("adds sparse files up against the total, to exactly the limit and no further", async () => {
    const before = await takeManifest(workspace);
    for (const name of ["a.bin", "b.bin"]) {
      await writeFile(path.join(workspace, name), "");
      await truncate(path.join(workspace, name), 400 * MB);
    }
    const exact = await scanChanges(workspace, before, bounds({ totalBytes: 800 * MB, fileBytes: GB }));
    expect(exact.created).toEqual(["a.bin", "b.bin"]);
    const error = await stopped(
      scanChanges(workspace, before, bounds({ totalBytes: 800 * MB - 1, fileBytes: GB })),
    );
    expect(error.message).toContain("come to 800 MB or more (apparent size; counting stopped after 2 files)");
    expect(error.message).toContain("the total allowed is 800 MB (--max-output)");
  });

  it("allows exactly the most files, and refuses one more", async () => {
    const before = await takeManifest(workspace);
    await manyFiles(path.join(workspace, "out"), 10);
    const changes = await scanChanges(workspace, before, bounds({ files: 10 }));
    expect(changes.created).toHaveLength(10);
    const error = await stopped(scanChanges(workspace, before, bounds({ files: 9 })));
    expect(error.message).toBe(
      "outputs over the limit: more than 9 files created or changed (counting stopped there), the most allowed is 9 (--max-output-files)",
    );
  });

  it("stops counting at the limit instead of listing every file", async () => {
    const before = await takeManifest(workspace);
    await manyFiles(path.join(workspace, "out"), 5000);
    const timed = async (limits: Partial<OutputLimits>) => {
      const started = performance.now();
      await scanChanges(workspace, before, bounds(limits)).catch(() => undefined);
      return performance.now() - started;
    };
    await timed({ files: 100_000 }); // warm the folder into the cache
    const whole = await timed({ files: 100_000 });
    const early = await timed({ files: 10 });
    expect(early).toBeLessThan(whole / 4);
  }, 60_000);

  it("gives up when the deadline has passed", async () => {
    const before = await takeManifest(workspace);
    await writeTree(workspace, { "new.md": "x" });
    const error = await stopped(scanChanges(workspace, before, bounds({}, Date.now() - 1)));
    expect(error.code).toBe("COLLECT_TIMEOUT");
    expect(error.message).toBe(
      "collecting the outputs ran past the run's time limit of 60 s (listing the workspace); raise --timeout or the eval's timeout",
    );
  });

  it("names the file it was hashing when the deadline passes", async () => {
    await rm(path.join(workspace, ".claude"), { recursive: true });
    await writeFile(path.join(workspace, "a.bin"), Buffer.alloc(2 * MB, 1));
    const before = await takeManifest(workspace);
    await utimes(path.join(workspace, "a.bin"), new Date(), new Date(Date.now() + 5000));
    // Far off while the folder is listed, past once the hashing has started.
    let checks = 0;
    const entries = 5;
    const deadline = {
      get at() {
        checks++;
        return checks <= entries + 1 ? Number.POSITIVE_INFINITY : 0;
      },
      timeoutMs: 60_000,
    };
    const error = await stopped(scanChanges(workspace, before, { limits: DEFAULT_OUTPUT_LIMITS, deadline }));
    expect(error.message).toBe(
      "collecting the outputs ran past the run's time limit of 60 s (hashing a.bin); raise --timeout or the eval's timeout",
    );
  });

  it("stops hashing a file that grows past the largest size after it was measured", async () => {
    await rm(path.join(workspace, ".claude"), { recursive: true });
    const file = path.join(workspace, "grows.bin");
    await writeFile(file, Buffer.alloc(1000, 1));
    const before = await takeManifest(workspace);
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    // The file grows by one byte once the folder's five entries are listed, before its first chunk is hashed.
    let checks = 0;
    const deadline = {
      get at() {
        checks++;
        if (checks === 6) appendFileSync(file, "x");
        return Number.POSITIVE_INFINITY;
      },
      timeoutMs: 60_000,
    };
    const error = await stopped(
      scanChanges(workspace, before, { limits: { ...DEFAULT_OUTPUT_LIMITS, fileBytes: 1000 }, deadline }),
    );
    expect(error.message).toBe(
      "outputs over the limit: grows.bin is 1001 B (apparent size), the largest file allowed is 1000 B (--max-output-file)",
    );
  });

  it("skips a file removed between the listing and its measure", async () => {
    const solo = path.join(workspace, "solo");
    await writeTree(solo, { "gone.md": "x" });
    // The file goes once the folder has listed it, before it is measured.
    const deadline = {
      get at() {
        rmSync(path.join(solo, "gone.md"), { force: true });
        return Number.POSITIVE_INFINITY;
      },
      timeoutMs: 60_000,
    };
    const changes = await scanChanges(solo, new Map(), { limits: DEFAULT_OUTPUT_LIMITS, deadline });
    expect(changes).toEqual({ created: [], modified: [], deleted: [], sizes: new Map() });
  });

  it("does not fail on files removed between the listing and their hashing", async () => {
    const solo = path.join(workspace, "solo");
    await writeTree(solo, { "a.md": "x", "b.md": "x", "c.md": "x" });
    const before = await takeManifest(solo);
    for (const name of ["a.md", "b.md", "c.md"])
      await utimes(path.join(solo, name), new Date(), new Date(Date.now() + 5000));
    // All three go as the last of them is listed: the first two were measured, and are gone when hashed.
    let checks = 0;
    const deadline = {
      get at() {
        checks++;
        if (checks === 3) for (const name of ["a.md", "b.md", "c.md"]) rmSync(path.join(solo, name));
        return Number.POSITIVE_INFINITY;
      },
      timeoutMs: 60_000,
    };
    const changes = await scanChanges(solo, before, { limits: DEFAULT_OUTPUT_LIMITS, deadline });
    expect([...changes.modified, ...changes.deleted].sort()).toEqual(["a.md", "b.md", "c.md"]);
    expect(changes.created).toEqual([]);
  });

  it("reports a file it cannot measure for a reason other than its being gone, as a workspace error", async () => {
    const solo = path.join(workspace, "solo");
    await writeTree(solo, { "sub/a.md": "x" });
    // Once the folder has listed the file, the folder is swapped for a file: the file's path leads through a file.
    let checks = 0;
    const deadline = {
      get at() {
        checks++;
        if (checks === 2) {
          renameSync(path.join(solo, "sub"), path.join(solo, "moved"));
          writeFileSync(path.join(solo, "sub"), "");
        }
        return Number.POSITIVE_INFINITY;
      },
      timeoutMs: 60_000,
    };
    await expect(
      scanChanges(solo, new Map(), { limits: DEFAULT_OUTPUT_LIMITS, deadline }),
    ).rejects.toMatchObject({
      code: "WORKSPACE",
      message: expect.stringContaining(`Could not list the workspace ${solo}: ENOTDIR`),
    });
  });

  it("reports a file it cannot open to hash for a reason other than its being gone, as a workspace error", async () => {
    const solo = path.join(workspace, "solo");
    await writeTree(solo, { "a.md": "x", "b.md": "x" });
    const before = await takeManifest(solo);
    for (const name of ["a.md", "b.md"])
      await utimes(path.join(solo, name), new Date(), new Date(Date.now() + 5000));
    // As the last file is listed, both become links to themselves: the one already measured cannot be opened.
    let checks = 0;
    const deadline = {
      get at() {
        checks++;
        if (checks === 2)
          for (const name of ["a.md", "b.md"]) {
            rmSync(path.join(solo, name));
            symlinkSync(name, path.join(solo, name));
          }
        return Number.POSITIVE_INFINITY;
      },
      timeoutMs: 60_000,
    };
    await expect(
      scanChanges(solo, before, { limits: DEFAULT_OUTPUT_LIMITS, deadline }),
    ).rejects.toMatchObject({
      code: "WORKSPACE",
      message: expect.stringContaining(`Could not list the workspace ${solo}: ELOOP`),
    });
  });

  it("reads excluded prefixes without leading ./ or trailing slashes", async () => {
    const exclude = ["././.claude/skills//", "v1./cache"];
    const before = await takeManifest(workspace, { exclude });
    await writeTree(workspace, {
      ".claude/skills/s/new.md": "no",
      "v1./cache/a.txt": "no",
      "v1cache/b.txt": "yes",
    });
    const changes = await scanChanges(workspace, before, bounds({}), { exclude });
    expect(changes).toEqual({
      created: ["v1cache/b.txt"],
      modified: [],
      deleted: [],
      sizes: new Map([["v1cache/b.txt", 3]]),
    });
  });

  it("neither lists nor follows symbolic links", async () => {
    const before = await takeManifest(workspace);
    await symlink("edit.md", path.join(workspace, "link.md"));
    await symlink(".claude", path.join(workspace, "link-dir"));
    const changes = await scanChanges(workspace, before, bounds({}));
    expect(changes).toEqual({ created: [], modified: [], deleted: [], sizes: new Map() });
  });

  it("finds a file of another size even when its modification time was put back", async () => {
    const then = new Date("2026-01-02T03:04:05.000Z");
    await utimes(path.join(workspace, "edit.md"), then, then);
    const before = await takeManifest(workspace);
    await writeFile(path.join(workspace, "edit.md"), "after, longer");
    await utimes(path.join(workspace, "edit.md"), then, then);
    const changes = await scanChanges(workspace, before, bounds({}));
    expect(changes).toEqual({
      created: [],
      modified: ["edit.md"],
      deleted: [],
      sizes: new Map([["edit.md", 13]]),
    });
  });

  it("hashes a known file of exactly the largest size whose time alone moved, and finds no change", async () => {
    await writeFile(path.join(workspace, "at.bin"), Buffer.alloc(MB, 1));
    const before = await takeManifest(workspace);
    await utimes(path.join(workspace, "at.bin"), new Date(), new Date(Date.now() + 5000));
    const changes = await scanChanges(workspace, before, bounds({ fileBytes: MB }));
    expect(changes).toEqual({ created: [], modified: [], deleted: [], sizes: new Map() });
  });

  it("reports a folder it cannot list as a workspace error naming it", async () => {
    const missing = path.join(workspace, "missing");
    const error = await scanChanges(missing, new Map(), bounds({})).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: "WORKSPACE",
      message: `Could not list the workspace ${missing}: ENOENT: no such file or directory, opendir '${missing}'`,
    });
  });

  it("closes every file it hashes", async () => {
    const before = await takeManifest(workspace);
    for (const name of ["keep.md", "touch.md"])
      await utimes(path.join(workspace, name), new Date(), new Date(Date.now() + 5000));
    const open = await openFileCount();
    const changes = await scanChanges(workspace, before, bounds({}));
    expect(changes.modified).toEqual([]);
    expect(await openFileCount()).toBe(open);
  });

  it("sorts each list by the whole path, whatever order the folders list their files in", async () => {
    await rm(path.join(workspace, ".claude"), { recursive: true });
    for (const name of SCRAMBLED_NAMES)
      await writeTree(workspace, { [`old/${name}`]: name, [`edit/${name}`]: name });
    await writeTree(workspace, { "a/b.txt": "", "a-c.txt": "", "m/b.txt": "1", "m-c.txt": "1" });
    const before = await takeManifest(workspace);
    await rm(path.join(workspace, "old"), { recursive: true });
    await rm(path.join(workspace, "a"), { recursive: true });
    await rm(path.join(workspace, "a-c.txt"));
    for (const name of SCRAMBLED_NAMES)
      await writeTree(workspace, { [`new/${name}`]: name, [`edit/${name}`]: `${name}!` });
    await writeTree(workspace, { "n/b.txt": "", "n-c.txt": "", "m/b.txt": "22", "m-c.txt": "22" });
    const changes = await scanChanges(workspace, before, bounds({}));
    const sorted = [...SCRAMBLED_NAMES].sort();
    expect(changes.created).toEqual(["n-c.txt", "n/b.txt", ...sorted.map((name) => `new/${name}`)]);
    expect(changes.modified).toEqual([...sorted.map((name) => `edit/${name}`), "m-c.txt", "m/b.txt"]);
    expect(changes.deleted).toEqual(["a-c.txt", "a/b.txt", ...sorted.map((name) => `old/${name}`)]);
  });
});
