import { mkdir, truncate, utimes, writeFile } from "node:fs/promises";
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
    expect(error.message).toContain("ran past the run's time limit of 60 s");
  });
});
