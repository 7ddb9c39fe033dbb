import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IterationRecord } from "../../src/contracts/run-record.js";
import {
  chooseIteration,
  defaultWorkspace,
  iterationIn,
  markIterationInterrupted,
  readIterationRecord,
} from "../../src/run/iteration.js";
import { iterationNumbers } from "../../src/runlog/list-runs.js";

let workspace: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "skillgym-iteration-"));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const plan: IterationRecord["plan"] = {
  evals: [1, "two"],
  configurations: ["with_skill", "without_skill"],
  runs_per_configuration: 3,
};

function record(overrides: Partial<IterationRecord> = {}): IterationRecord {
  return {
    skill_name: "pdf-tools",
    skill_path: "/skills/pdf-tools",
    skill_hash: "hash-a",
    status: "running",
    started_at: "2025-01-01T00:00:00.000Z",
    plan,
    ...overrides,
  };
}

async function writeIteration(n: number, value: IterationRecord | string | undefined): Promise<void> {
  const dir = join(workspace, `iteration-${n}`);
  await mkdir(dir, { recursive: true });
  if (value !== undefined)
    await writeFile(join(dir, "iteration.json"), typeof value === "string" ? value : JSON.stringify(value));
}

describe("defaultWorkspace", () => {
  it("sits beside the skill folder, named after the skill", () => {
    const skill = resolve("/skills/pdf-tools");
    expect(defaultWorkspace(skill, "pdf")).toBe(join(dirname(skill), "pdf-workspace"));
    expect(defaultWorkspace(skill, "")).toBe(join(dirname(skill), "pdf-tools-workspace"));
  });
});

describe("iterationNumbers", () => {
  it("lists iteration folders numerically and ignores everything else", async () => {
    for (const name of [
      "iteration-2",
      "iteration-10",
      "iteration-1",
      "iteration-x",
      "notes",
      "iteration-3-old",
    ])
      await mkdir(join(workspace, name));
    expect(await iterationNumbers(workspace)).toEqual([1, 2, 10]);
  });

  it("is empty for a workspace that does not exist", async () => {
    expect(await iterationNumbers(join(workspace, "missing"))).toEqual([]);
  });
});

describe("readIterationRecord", () => {
  it("reads a valid record and ignores a missing or broken one", async () => {
    await writeIteration(1, record());
    await writeIteration(2, "{ broken");
    await writeIteration(3, JSON.stringify({ status: "running" }));
    expect((await readIterationRecord(join(workspace, "iteration-1")))?.skill_hash).toBe("hash-a");
    expect(await readIterationRecord(join(workspace, "iteration-2"))).toBeUndefined();
    expect(await readIterationRecord(join(workspace, "iteration-3"))).toBeUndefined();
    expect(await readIterationRecord(join(workspace, "iteration-9"))).toBeUndefined();
  });
});

describe("chooseIteration", () => {
  const wanted = { skillHash: "hash-a", plan };

  it("starts iteration-1 in an empty workspace and creates it", async () => {
    const chosen = await chooseIteration(workspace, wanted, false);
    expect(chosen).toEqual({ dir: join(workspace, "iteration-1"), number: 1, resumed: false });
    expect(await readdir(workspace)).toEqual(["iteration-1"]);
  });

  it("starts a workspace that does not exist yet", async () => {
    const fresh = join(workspace, "nested", "ws");
    expect(await chooseIteration(fresh, wanted, false)).toMatchObject({ number: 1, resumed: false });
    expect(await readdir(fresh)).toEqual(["iteration-1"]);
  });

  it("numbers a new iteration after the highest one", async () => {
    await writeIteration(1, record({ status: "complete" }));
    await writeIteration(4, record({ status: "complete" }));
    expect(await chooseIteration(workspace, wanted, false)).toEqual({
      dir: join(workspace, "iteration-5"),
      number: 5,
      resumed: false,
    });
  });

  it("resumes the latest iteration when it was interrupted with the same skill and plan", async () => {
    await writeIteration(1, record({ status: "complete" }));
    await writeIteration(2, record({ status: "interrupted" }));
    expect(await chooseIteration(workspace, wanted, false)).toEqual({
      dir: join(workspace, "iteration-2"),
      number: 2,
      resumed: true,
    });
    await writeIteration(2, record({ status: "running", plan: { ...plan, evals: ["1", "two"] } }));
    expect(await chooseIteration(workspace, wanted, false)).toMatchObject({ number: 2, resumed: true });
  });

  it("resumes a plan whose evals were listed in another order, but not one with another baseline", async () => {
    await writeIteration(1, record({ status: "interrupted", plan: { ...plan, evals: ["two", 1] } }));
    expect(await chooseIteration(workspace, wanted, false)).toMatchObject({ number: 1, resumed: true });

    const old = {
      ...plan,
      configurations: ["with_skill", "old_skill"] as IterationRecord["plan"]["configurations"],
    };
    await writeIteration(
      1,
      record({ status: "interrupted", plan: { ...old, baseline_skill_path: "/skills/v1" } }),
    );
    const other = { skillHash: "hash-a", plan: { ...old, baseline_skill_path: "/skills/v2" } };
    expect(await chooseIteration(workspace, other, false)).toMatchObject({ number: 2, resumed: false });
  });

  it("does not resume a complete iteration", async () => {
    await writeIteration(1, record({ status: "complete" }));
    expect(await chooseIteration(workspace, wanted, false)).toMatchObject({ number: 2, resumed: false });
  });

  it("starts a new iteration when the plan or the skill changed", async () => {
    await writeIteration(1, record({ status: "interrupted", plan: { ...plan, runs_per_configuration: 1 } }));
    expect(await chooseIteration(workspace, wanted, false)).toMatchObject({ number: 2, resumed: false });

    await writeIteration(
      2,
      record({ status: "interrupted", plan: { ...plan, configurations: ["with_skill"] } }),
    );
    expect(await chooseIteration(workspace, wanted, false)).toMatchObject({ number: 3, resumed: false });

    await writeIteration(3, record({ status: "interrupted", skill_hash: "hash-b" }));
    expect(await chooseIteration(workspace, wanted, false)).toMatchObject({ number: 4, resumed: false });
  });

  it("starts a new iteration after one without a readable record", async () => {
    await writeIteration(1, undefined);
    expect(await chooseIteration(workspace, wanted, false)).toMatchObject({ number: 2, resumed: false });
  });

  it("resumes the latest iteration whatever its state when resume is asked for", async () => {
    await writeIteration(
      1,
      record({ status: "complete", skill_hash: "other", plan: { ...plan, runs_per_configuration: 1 } }),
    );
    expect(await chooseIteration(workspace, wanted, true)).toEqual({
      dir: join(workspace, "iteration-1"),
      number: 1,
      resumed: true,
    });
  });

  it("starts iteration-1 when resume is asked for in an empty workspace", async () => {
    expect(await chooseIteration(workspace, wanted, true)).toMatchObject({ number: 1, resumed: false });
  });
});

describe("chooseIteration with shards", () => {
  const shard = (index: number) => ({ index, count: 2, plan_hash: "plan-a" });
  it("resumes an interrupted shard only as the same shard of the same plan", async () => {
    await writeIteration(1, record({ status: "interrupted", shard: shard(1) }));
    const same = await chooseIteration(workspace, { skillHash: "hash-a", plan, shard: shard(1) }, false);
    expect(same).toMatchObject({ number: 1, resumed: true });
    const other = await chooseIteration(workspace, { skillHash: "hash-a", plan, shard: shard(2) }, false);
    expect(other).toMatchObject({ number: 2, resumed: false });
    const unsharded = await chooseIteration(workspace, { skillHash: "hash-a", plan }, false);
    expect(unsharded).toMatchObject({ number: 3, resumed: false });
  });
});

describe("markIterationInterrupted", () => {
  it("marks a finished iteration interrupted, and leaves one already interrupted or without a record as it is", async () => {
    await writeIteration(1, record({ status: "complete", finished_at: "2025-01-01T01:00:00.000Z" }));
    await markIterationInterrupted(join(workspace, "iteration-1"));
    const marked = await readIterationRecord(join(workspace, "iteration-1"));
    expect(marked).toMatchObject({ status: "interrupted", skill_hash: "hash-a", plan });
    expect(marked?.finished_at).not.toBe("2025-01-01T01:00:00.000Z");

    const earlier = record({ status: "interrupted", finished_at: "2025-01-01T02:00:00.000Z" });
    await writeIteration(2, earlier);
    await markIterationInterrupted(join(workspace, "iteration-2"));
    expect(await readIterationRecord(join(workspace, "iteration-2"))).toEqual(earlier);

    await writeIteration(3, undefined);
    await markIterationInterrupted(join(workspace, "iteration-3"));
    expect(await readdir(join(workspace, "iteration-3"))).toEqual([]);
  });
});

describe("iterationIn", () => {
  it("resumes a given folder that has a record, and creates one that does not exist", async () => {
    await writeIteration(4, record());
    expect(await iterationIn({ dir: join(workspace, "iteration-4"), number: 4 })).toEqual({
      dir: join(workspace, "iteration-4"),
      number: 4,
      resumed: true,
    });
    const fresh = join(workspace, "deeper", "iteration-1");
    expect(await iterationIn({ dir: fresh, number: 1 })).toEqual({ dir: fresh, number: 1, resumed: false });
    expect(await readdir(fresh)).toEqual([]);
  });
});
