import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { MergePartial } from "../../src/contracts/shard.js";
import { SkillgymError } from "../../src/errors.js";
import {
  refuseIntoShard,
  refusePlanProblems,
  refuseShortfalls,
  shortfallLines,
} from "../../src/merge/refusals.js";

const partial: MergePartial = {
  count: 4,
  planned_runs: { eval: 8, trigger: 8 },
  missing_runs: { eval: 5, trigger: 5 },
  shards: [
    {
      index: 1,
      source: "a",
      state: "interrupted",
      planned_runs: { eval: 2, trigger: 2 },
      missing_runs: { eval: 1, trigger: 0 },
    },
    {
      index: 2,
      source: "b",
      state: "running",
      planned_runs: { eval: 2, trigger: 2 },
      missing_runs: { eval: 0, trigger: 2 },
    },
    {
      index: 3,
      source: "c",
      state: "incomplete",
      planned_runs: { eval: 2, trigger: 2 },
      missing_runs: { eval: 2, trigger: 1 },
    },
    {
      index: 4,
      state: "missing",
      planned_runs: { eval: 2, trigger: 2 },
      missing_runs: { eval: 2, trigger: 2 },
    },
  ],
};

describe("shortfallLines", () => {
  it("names each shard short of its share with its folder, and a missing one with how many were given", () => {
    expect(shortfallLines(partial, 3)).toEqual([
      "shard 1/4 (a) was interrupted: 1 of 2 eval runs missing",
      'shard 2/4 (b) never finished (its status is still "running": was its process killed?): 2 of 2 trigger runs missing',
      "shard 3/4 (c) is incomplete: 2 of 2 eval runs and 1 of 2 trigger runs missing",
      "shard 4/4 missing: no folder given holds it (3 of 4 given)",
    ]);
  });

  it("is empty for a whole merge", () => {
    expect(shortfallLines(undefined, 2)).toEqual([]);
  });
});

describe("refuseShortfalls", () => {
  it("refuses missing work with every line, unless --partial asks for it", () => {
    expect(() => refuseShortfalls([], false)).not.toThrow();
    expect(() => refuseShortfalls(["x"], true)).not.toThrow();
    let thrown: unknown;
    try {
      refuseShortfalls(["line one", "line two"], false);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SkillgymError);
    expect((thrown as SkillgymError).code).toBe("BAD_INPUT");
    expect((thrown as Error).message).toBe("the shards do not hold the whole plan:\n  line one\n  line two");
    expect((thrown as SkillgymError).hint).toMatch(/--partial/);
  });
});

describe("refusePlanProblems", () => {
  it("refuses shards of more than one plan with every problem, and passes none", () => {
    expect(() => refusePlanProblems([])).not.toThrow();
    let thrown: unknown;
    try {
      refusePlanProblems(["p1", "p2"]);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SkillgymError);
    expect((thrown as SkillgymError).code).toBe("BAD_INPUT");
    expect((thrown as Error).message).toBe("the shards do not belong to one plan:\n  p1\n  p2");
    expect((thrown as SkillgymError).hint).toMatch(/each shard once/);
  });
});

describe("refuseIntoShard", () => {
  // One shard named by its workspace, one by its iteration folder.
  const shards = [
    { source: "runs/shard-1", dir: resolve("runs/shard-1/iteration-2") },
    { source: "ws2/iteration-1", dir: resolve("ws2/iteration-1") },
  ];
  const refusal = (into: string): SkillgymError | undefined => {
    try {
      refuseIntoShard(into, shards);
    } catch (e) {
      return e as SkillgymError;
    }
    return undefined;
  };
  const among = "; the merge would write among the shard's files";

  it("refuses --into a shard's folder, a folder inside it, or the workspace of a shard named by its iteration", () => {
    expect(refusal("runs/shard-1")?.message).toBe(
      `--into runs/shard-1 is the shard folder runs/shard-1${among}`,
    );
    expect(refusal(resolve("runs/shard-1"))?.message).toBe(
      `--into ${resolve("runs/shard-1")} is the shard folder runs/shard-1${among}`,
    );
    expect(refusal(join("runs", "shard-1", "iteration-2"))?.message).toBe(
      `--into ${join("runs", "shard-1", "iteration-2")} is inside the shard folder runs/shard-1${among}`,
    );
    expect(refusal("ws2/iteration-1/x")?.message).toBe(
      `--into ws2/iteration-1/x is inside the shard folder ws2/iteration-1${among}`,
    );
    const workspace = refusal("ws2");
    expect(workspace?.message).toBe(`--into ws2 is the workspace of the shard ws2/iteration-1${among}`);
    expect(workspace?.code).toBe("BAD_INPUT");
    expect(workspace?.hint).toBe("merge into a workspace of its own, such as --into merged");
  });

  it("takes any folder beside them, one whose name only begins like a shard's among them", () => {
    for (const into of ["merged", "runs", "runs/shard-10", "ws2/iteration-10", "ws"])
      expect(refusal(into)).toBeUndefined();
  });
});
