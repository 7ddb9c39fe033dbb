import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FsMissing, FsRefusal, readTextFile, writeTextFile } from "../../../src/agents/acp/client-fs.js";
import { exists } from "../../../src/fs-probe.js";
import { tempDir } from "../../e2e/helpers.js";

describe("ACP client file-system methods", () => {
  let dir: string;
  let work: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    work = join(dir, "work");
    await mkdir(work);
    await writeFile(join(work, "notes.txt"), "one\ntwo\nthree\nfour\n");
    await writeFile(join(dir, "secret.txt"), "do not read\n");
  });
  afterEach(() => cleanup());

  it("reads a file inside the workspace, whole or by lines", async () => {
    expect(await readTextFile({ path: join(work, "notes.txt") }, [work])).toEqual({
      content: "one\ntwo\nthree\nfour\n",
    });
    expect(await readTextFile({ path: join(work, "notes.txt"), line: 2, limit: 2 }, [work])).toEqual({
      content: "two\nthree",
    });
    expect(await readTextFile({ path: join(work, "notes.txt"), line: 3 }, [work])).toEqual({
      content: "three\nfour\n",
    });
    expect(await readTextFile({ path: join(work, "notes.txt"), limit: 1 }, [work])).toEqual({
      content: "one",
    });
  });

  it("refuses a request that names no path", async () => {
    for (const path of ["", undefined])
      await expect(readTextFile({ path: path as string }, [work])).rejects.toMatchObject({
        name: "FsRefusal",
        what: "read",
        target: String(path),
        reason: "no path given",
        message: `skillgym refused to read ${path}: no path given`,
      });
  });

  it("refuses to read outside the workspace", async () => {
    const read = readTextFile({ path: join(dir, "secret.txt") }, [work]);
    await expect(read).rejects.toBeInstanceOf(FsRefusal);
    await expect(read).rejects.toMatchObject({ what: "read", reason: "outside the workspace" });
    await expect(readTextFile({ path: join(work, "..", "secret.txt") }, [work])).rejects.toBeInstanceOf(
      FsRefusal,
    );
    await expect(readTextFile({ path: "notes.txt" }, [work])).rejects.toMatchObject({
      reason: "ACP file paths must be absolute",
    });
  });

  it("says a missing file is missing, and passes on any other failure to read", async () => {
    const missing = readTextFile({ path: join(work, "nope.txt") }, [work]);
    await expect(missing).rejects.toBeInstanceOf(FsMissing);
    await expect(missing).rejects.toMatchObject({
      name: "FsMissing",
      target: join(work, "nope.txt"),
      message: `Resource not found: ${join(work, "nope.txt")}`,
    });
    await mkdir(join(work, "out"));
    await expect(readTextFile({ path: join(work, "out") }, [work])).rejects.toMatchObject({ code: "EISDIR" });
  });

  it("writes inside the workspace, making the folder", async () => {
    await writeTextFile({ path: join(work, "out", "a.txt"), content: "hi\n" }, [work], "eval");
    expect(await readFile(join(work, "out", "a.txt"), "utf8")).toBe("hi\n");
    await writeTextFile({ path: join(work, "b.txt"), content: "in place\n" }, [work], "eval");
    expect(await readFile(join(work, "b.txt"), "utf8")).toBe("in place\n");
  });

  it("refuses to write outside the workspace, or at all in a read-only run", async () => {
    await expect(
      writeTextFile({ path: join(dir, "evil.txt"), content: "x" }, [work], "eval"),
    ).rejects.toMatchObject({ what: "write", reason: "outside the workspace" });
    expect(await exists(join(dir, "evil.txt"))).toBe(false);
    await expect(
      writeTextFile({ path: join(work, "a.txt"), content: "x" }, [work], "read-only"),
    ).rejects.toMatchObject({ what: "write", reason: "a read-only run may not write" });
    expect(await exists(join(work, "a.txt"))).toBe(false);
  });
});
