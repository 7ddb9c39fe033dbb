import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  configurationFolders,
  listRuns,
  parseRunId,
  runIdOf,
  triggerRunFolders,
} from "../../src/runlog/list-runs.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "list-runs-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function folders(root: string, paths: string[]): Promise<void> {
  for (const path of paths) await mkdir(join(root, path), { recursive: true });
}

async function files(root: string, paths: string[]): Promise<void> {
  for (const path of paths) await writeFile(join(root, path), "");
}

describe("listing an iteration's run folders", () => {
  it("lists every run folder in eval, configuration, run order, skipping what is not a run", async () => {
    await folders(dir, [
      "eval-10/with_skill/run-1",
      "eval-2/zeta/run-1",
      "eval-2/alpha/run-1",
      "eval-2/without_skill/run-10",
      "eval-2/without_skill/run-2",
      "eval-2/without_skill/run-x",
      "eval-2/old_skill/run-1",
      "eval-2/with_skill/run-1",
      "eval-2/con\\fig/run-1",
      "notes/with_skill/run-1",
    ]);
    await files(dir, ["eval-3", "eval-2/with_skill/run-3", "eval-10/file-config"]);
    const runs = await listRuns(dir);
    expect(runs).toEqual([
      { id: "eval-2/with_skill/run-1", evalDir: "eval-2", configuration: "with_skill", runNumber: 1 },
      { id: "eval-2/old_skill/run-1", evalDir: "eval-2", configuration: "old_skill", runNumber: 1 },
      { id: "eval-2/without_skill/run-2", evalDir: "eval-2", configuration: "without_skill", runNumber: 2 },
      { id: "eval-2/without_skill/run-10", evalDir: "eval-2", configuration: "without_skill", runNumber: 10 },
      { id: "eval-2/alpha/run-1", evalDir: "eval-2", configuration: "alpha", runNumber: 1 },
      { id: "eval-2/zeta/run-1", evalDir: "eval-2", configuration: "zeta", runNumber: 1 },
      { id: "eval-10/with_skill/run-1", evalDir: "eval-10", configuration: "with_skill", runNumber: 1 },
    ]);
  });

  it("orders configurations with_skill, the baselines, then the others by name", async () => {
    await folders(dir, ["zeta", "without_skill", "beta", "old_skill", "with_skill", "alpha"]);
    expect(await configurationFolders(dir)).toEqual([
      "with_skill",
      "old_skill",
      "without_skill",
      "alpha",
      "beta",
      "zeta",
    ]);
    await rm(dir, { recursive: true });
    await folders(dir, ["old_skill", "without_skill", "with_skill"]);
    expect(await configurationFolders(dir)).toEqual(["with_skill", "old_skill", "without_skill"]);
  });

  it("finds no runs or configurations where there is no folder", async () => {
    expect(await listRuns(join(dir, "absent"))).toEqual([]);
    expect(await configurationFolders(join(dir, "absent"))).toEqual([]);
  });
});

describe("run ids", () => {
  it("flattens a run id for URLs and feedback", () => {
    expect(runIdOf("eval-1/with_skill/run-2")).toBe("eval-1-with_skill-run-2");
  });

  it("splits a run id of the run folder's shape into its parts", () => {
    expect(parseRunId("eval-a/with_skill/run-3")).toEqual({
      id: "eval-a/with_skill/run-3",
      evalDir: "eval-a",
      configuration: "with_skill",
      runNumber: 3,
    });
  });

  it.each([
    "eval-a/run-3",
    "eval-a/with_skill/run-3/more",
    "eval-a/with_skill/run-x",
    "notes/with_skill/run-3",
    "eval-a/./run-3",
    "eval-a/../run-3",
    "eval-a//run-3",
    "eval-a/con\\fig/run-3",
  ])("refuses %s", (id) => {
    expect(parseRunId(id)).toBeUndefined();
  });
});

describe("trigger run folders", () => {
  it("lists query-<n>/run-<k> folders sorted, skipping other names", async () => {
    await folders(dir, [
      "query-2/run-1",
      "query-1/run-10",
      "query-1/run-1",
      "query-1/run-2",
      "query-10/run-0",
      "query-1/xrun-1",
      "query-1/run-1a",
      "query-1/run-x",
      "query-1a/run-1",
      "query-x/run-1",
      "xquery-1/run-1",
    ]);
    await files(dir, ["query-3"]);
    expect(await triggerRunFolders(dir)).toEqual([
      "query-1/run-1",
      "query-1/run-10",
      "query-1/run-2",
      "query-10/run-0",
      "query-2/run-1",
    ]);
  });

  it("finds none where there is no triggers folder", async () => {
    expect(await triggerRunFolders(join(dir, "absent"))).toEqual([]);
  });
});
