import { describe, expect, it } from "vitest";
import { EvalCase } from "../../src/contracts/evals.js";
import { planRuns } from "../../src/run/plan.js";
import { runIdentity } from "../../src/run/run-evals.js";
import { parseShard, partition, planHash } from "../../src/shard/index.js";
import type { ResolvedEval } from "../../src/suite/model.js";
import { planTriggerRuns } from "../../src/triggers/plan.js";
import { triggerRunIdentity } from "../../src/triggers/run-triggers.js";

function evalCase(id: number | string): ResolvedEval {
  const parsed = EvalCase.parse({ id, prompt: `do ${id}`, expectations: ["done"] });
  return { ...parsed, numericId: typeof id === "number" ? id : 99, fixtures: [] };
}

function evalSpecs(evalCount: number, runs: number) {
  return planRuns({
    evals: Array.from({ length: evalCount }, (_, i) => evalCase(i % 3 === 0 ? `e${i}` : i + 1)),
    configurations: ["with_skill", "without_skill"],
    runs,
    iterationDir: "/ws/iteration-1",
    defaultTimeoutSeconds: 60,
  });
}

describe("parseShard", () => {
  it("reads i/n", () => {
    expect(parseShard("1/1")).toEqual({ index: 1, count: 1 });
    expect(parseShard("1/2")).toEqual({ index: 1, count: 2 });
    expect(parseShard("4/4")).toEqual({ index: 4, count: 4 });
  });
  it.each([
    ["0/2", "i must be from 1 to 2"],
    ["3/2", "i must be from 1 to 2"],
    ["1/0", "n must be 1 or more"],
    ["x", "not of the form i/n"],
    ["1/2/3", "not of the form i/n"],
    ["-1/2", "not of the form i/n"],
    ["", "not of the form i/n"],
  ])("refuses %j", (value, message) => {
    expect(() => parseShard(value)).toThrow(message);
  });
});

describe("partition", () => {
  const cases: [number, number, number][] = [
    [1, 1, 1],
    [3, 1, 2],
    [5, 3, 3],
    [7, 3, 4],
    [10, 2, 7],
    [1, 2, 5],
  ];
  it.each(cases)(
    "%i evals × 2 configurations × %i runs in %i shards: an exact cover, balanced within one",
    (evalCount, runs, n) => {
      const specs = evalSpecs(evalCount, runs);
      const parts = Array.from({ length: n }, (_, i) =>
        partition(specs, runIdentity, { index: i + 1, count: n }),
      );
      const ids = parts.flat().map(runIdentity);
      expect(ids).toHaveLength(specs.length);
      expect(new Set(ids)).toEqual(new Set(specs.map(runIdentity)));
      const sizes = parts.map((p) => p.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    },
  );

  it("is the same whatever order the plan lists its units in", () => {
    const specs = evalSpecs(6, 3);
    const shuffled = [...specs].reverse();
    for (const index of [1, 2, 3]) {
      const a = partition(specs, runIdentity, { index, count: 3 }).map(runIdentity).sort();
      const b = partition(shuffled, runIdentity, { index, count: 3 }).map(runIdentity).sort();
      expect(b).toEqual(a);
    }
  });

  it("keeps the plan's order inside a shard", () => {
    const specs = evalSpecs(6, 3);
    const part = partition(specs, runIdentity, { index: 2, count: 3 });
    const positions = part.map((s) => specs.indexOf(s));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it("deals a unit planned twice (one identity) in the plan's order: its first to the shard dealt first", () => {
    const names = ["a", "b", "c", "d", "e"];
    const units = names.flatMap((name) => [`${name}:first`, `${name}:second`]);
    const identity = (unit: string) => unit.split(":")[0]!;
    // Sorted by hash, the two of one identity sit side by side at an even place, so two shards deal one each.
    expect(partition(units, identity, { index: 1, count: 2 })).toEqual(names.map((n) => `${n}:first`));
    expect(partition(units, identity, { index: 2, count: 2 })).toEqual(names.map((n) => `${n}:second`));
  });

  it("spreads by hash, not by position: a shard is not a block of the plan", () => {
    const specs = evalSpecs(10, 3);
    const first = partition(specs, runIdentity, { index: 1, count: 2 });
    expect(first.map(runIdentity)).not.toEqual(specs.slice(0, first.length).map(runIdentity));
  });

  it("partitions trigger runs by query and run number", () => {
    const queries = Array.from({ length: 7 }, (_, i) => ({
      query: `query ${i}`,
      should_trigger: i % 2 === 0,
    }));
    const specs = planTriggerRuns(queries, 3, "/ws/iteration-1/triggers", "my-skill");
    const parts = [1, 2, 3, 4].map((index) => partition(specs, triggerRunIdentity, { index, count: 4 }));
    expect(
      parts
        .flat()
        .map((s) => s.runDir)
        .sort(),
    ).toEqual(specs.map((s) => s.runDir).sort());
    const sizes = parts.map((p) => p.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    // Two planners (two machines) agree although each made its own synthetic names.
    const again = planTriggerRuns(queries, 3, "/other/iteration-9/triggers", "my-skill");
    expect(partition(again, triggerRunIdentity, { index: 2, count: 4 }).map(triggerRunIdentity)).toEqual(
      parts[1]!.map(triggerRunIdentity),
    );
  });
});

describe("planHash", () => {
  it("ignores key order and absent values, and changes with any defining part", () => {
    const base = {
      kind: "evals",
      runs: 3,
      agent: "claude-code",
      only: undefined,
      evals: [{ id: 1, prompt: "p" }],
    };
    expect(planHash(base)).toBe(
      planHash({ evals: [{ prompt: "p", id: 1 }], agent: "claude-code", runs: 3, kind: "evals" }),
    );
    expect(planHash({ ...base, runs: 2 })).not.toBe(planHash(base));
    expect(planHash({ ...base, agent: "codex" })).not.toBe(planHash(base));
    expect(planHash({ ...base, model: "m" })).not.toBe(planHash(base));
    expect(planHash({ ...base, only: ["1"] })).not.toBe(planHash(base));
  });

  it("is the same 16 hex digits on every machine and in every version: folders made earlier still merge", () => {
    expect(
      planHash({
        skill: "release-notes",
        runs: 3,
        evals: [{ id: 1, prompt: "do ü" }, { id: "e2" }],
        b: undefined,
        a: { z: 1, y: [2, undefined] },
      }),
    ).toBe("4da8e57abd31a742");
  });
});
