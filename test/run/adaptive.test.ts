import { describe, expect, it } from "vitest";
import { evalsToExtend } from "../../src/run/adaptive.js";

describe("evalsToExtend", () => {
  const runs = new Map([
    ["eval-1", 3],
    ["eval-2", 3],
    ["eval-3", 9],
  ]);
  it("extends only the unsettled evals under the cap", () => {
    const certainty = [
      { folder: "eval-1", settled: true },
      { folder: "eval-2", settled: false },
      { folder: "eval-3", settled: false },
    ];
    expect(evalsToExtend(certainty, runs, 9)).toEqual(["eval-2"]);
    expect(evalsToExtend(certainty, runs, 3)).toEqual([]);
  });
});
