import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { missingMountPoints, removeLeftMountPoints } from "../../../src/agents/codex/leftovers.js";

// The folders Codex's sandbox creates as mount points in a workspace that lacked them, and their removal after a run.
let cwd = "";
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "codex-leftovers-"));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("Codex's sandbox mount points", () => {
  it("lists the protected names the workspace lacks, and no other", async () => {
    expect(await missingMountPoints(cwd)).toEqual([".git", ".agents", ".codex", ".aws"]);
    await mkdir(join(cwd, ".git"));
    await writeFile(join(cwd, ".aws"), "a file of the project's own\n");
    expect(await missingMountPoints(cwd)).toEqual([".agents", ".codex"]);
  });

  it("removes the empty ones that were missing before the run, and keeps one the run wrote into", async () => {
    const before = await missingMountPoints(cwd);
    for (const name of [".git", ".agents", ".codex", ".aws"]) await mkdir(join(cwd, name));
    await writeFile(join(cwd, ".codex", "notes.md"), "kept\n");
    await removeLeftMountPoints(
      cwd,
      before.filter((name) => name !== ".aws"),
    );
    expect((await readdir(cwd)).sort()).toEqual([".aws", ".codex"]);
    expect(await readdir(join(cwd, ".codex"))).toEqual(["notes.md"]);
  });
});
