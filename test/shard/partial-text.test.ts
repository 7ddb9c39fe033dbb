import { describe, expect, it } from "vitest";
import { missingRunsText, parseShard, partialText, shareSize, shortfallText } from "../../src/shard/index.js";

const runs = (evalRuns: number, trigger: number) => ({ eval: evalRuns, trigger });

describe("what a shard lacks, in words", () => {
  it("names only the kinds of run that are missing", () => {
    expect(missingRunsText(runs(0, 0), runs(6, 13))).toBe("no run missing");
    expect(missingRunsText(runs(2, 0), runs(6, 13))).toBe("2 of 6 eval runs missing");
    expect(missingRunsText(runs(0, 4), runs(6, 13))).toBe("4 of 13 trigger runs missing");
    expect(missingRunsText(runs(1, 1), runs(6, 13))).toBe(
      "1 of 6 eval runs and 1 of 13 trigger runs missing",
    );
  });

  it("says each state of a shard, and whose shard it is in a merge of agents", () => {
    const shortfall = (state: "missing" | "interrupted" | "running" | "incomplete", agent?: string) => ({
      index: 2,
      state,
      ...(agent ? { agent } : {}),
      planned_runs: runs(6, 13),
      missing_runs: runs(6, 0),
    });
    expect(shortfallText(shortfall("missing"), 3)).toBe("shard 2/3 not given: 6 of 6 eval runs missing");
    expect(shortfallText(shortfall("interrupted"), 3)).toBe(
      "shard 2/3 interrupted: 6 of 6 eval runs missing",
    );
    expect(shortfallText(shortfall("running"), 3)).toBe("shard 2/3 never finished: 6 of 6 eval runs missing");
    expect(shortfallText(shortfall("incomplete", "codex"), 3)).toBe(
      "codex shard 2/3 incomplete: 6 of 6 eval runs missing",
    );
  });
});

describe("a partial merge, in one sentence", () => {
  it("says what is missing in all, then each short shard in turn, and what the figures cover", () => {
    const shard = (index: number, state: "missing" | "interrupted", missing: number) => ({
      index,
      state,
      planned_runs: runs(2, 5),
      missing_runs: runs(0, missing),
    });
    expect(
      partialText({
        count: 3,
        planned_runs: runs(6, 15),
        missing_runs: runs(0, 7),
        shards: [shard(1, "interrupted", 2), shard(3, "missing", 5)],
      }),
    ).toBe(
      "partial merge: 7 of 15 trigger runs missing (shard 1/3 interrupted: 2 of 5 trigger runs missing; " +
        "shard 3/3 not given: 5 of 5 trigger runs missing); the figures cover only the runs that finished",
    );
  });
});

describe("--shard i/n", () => {
  it("allows spaces around its numbers and numbers of more than one digit", () => {
    expect(parseShard(" 1 / 2 ")).toEqual({ index: 1, count: 2 });
    expect(parseShard("10/12")).toEqual({ index: 10, count: 12 });
    expect(() => parseShard("x1/2")).toThrow("not of the form i/n");
    expect(() => parseShard("1/2x")).toThrow("not of the form i/n");
  });

  it("deals each shard every n-th unit from its own", () => {
    expect([1, 2, 3].map((index) => shareSize(7, { index, count: 3 }))).toEqual([3, 2, 2]);
    expect(shareSize(2, { index: 3, count: 3 })).toBe(0);
    expect(shareSize(3, { index: 3, count: 3 })).toBe(1);
  });
});
