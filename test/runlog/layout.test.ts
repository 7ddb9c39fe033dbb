import { describe, expect, it } from "vitest";
import { evalIdFromDirName, iterationDirName, iterationNumberOf } from "../../src/runlog/layout.js";

describe("run folder names", () => {
  it("names an iteration folder by its number and reads the number back", () => {
    expect(iterationDirName(3)).toBe("iteration-3");
    expect(iterationNumberOf(iterationDirName(12))).toBe(12);
  });

  it("reads a numeric eval id only from a folder name that is all digits", () => {
    expect(evalIdFromDirName("eval-12")).toBe(12);
    expect(evalIdFromDirName("eval--4")).toBe(-4);
    expect(evalIdFromDirName("eval-a12")).toBe("a12");
    expect(evalIdFromDirName("eval-12a")).toBe("12a");
  });
});
