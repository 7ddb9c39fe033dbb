import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attemptFolderName, replayOfHeader, runNumberOfPath } from "../../src/contracts/run-marker.js";

describe("the run number in an attempt folder's name", () => {
  it("is read back from the workspace inside it, whatever the run's own name holds", () => {
    for (const name of ["q1-r3", "csv-stats-q2-r1", "1-with_skill-2", "odd.run-9.a9-name", "x-r7-a2"]) {
      const folder = attemptFolderName(name, 4, 2);
      expect(folder.startsWith(name)).toBe(true);
      expect(runNumberOfPath(join("/tmp", "skillgym-run.1.0-abc123", folder, "work"))).toBe(4);
      expect(runNumberOfPath(join("/tmp", "skillgym-run.1.0-abc123", folder))).toBe(4);
    }
  });

  it("keeps the run number across attempts: a retry is the same run", () => {
    const first = attemptFolderName("q1-r3", 3, 1);
    const retry = attemptFolderName("q1-r3", 3, 2);
    expect(first).not.toBe(retry);
    expect(runNumberOfPath(`/t/${first}/work`)).toBe(3);
    expect(runNumberOfPath(`/t/${retry}/work`)).toBe(3);
  });

  it("reads Windows paths and a path deeper inside the workspace; the innermost marked folder counts", () => {
    expect(runNumberOfPath(`C:\\Temp\\${attemptFolderName("q1-r1", 12, 1)}\\work`)).toBe(12);
    expect(runNumberOfPath(`/t/${attemptFolderName("a", 2, 1)}/work/sub/dir`)).toBe(2);
    expect(runNumberOfPath(`/t/${attemptFolderName("a", 2, 1)}/${attemptFolderName("b", 5, 1)}/work`)).toBe(
      5,
    );
  });

  it("is absent from a path that carries none, and from names that only look alike", () => {
    for (const path of [
      undefined,
      "",
      "/work/project",
      "/tmp/q1-r3-a1/work",
      "/tmp/x.run-3/work",
      "/tmp/x.run-0.a1/work",
      "/tmp/x.run-3.a1.bak/work",
      "/tmp/x.run-.a1/work",
    ])
      expect(runNumberOfPath(path)).toBeUndefined();
  });

  it("refuses a run number or attempt that is not a positive whole number", () => {
    expect(() => attemptFolderName("a", 0, 1)).toThrow(RangeError);
    expect(() => attemptFolderName("a", 1, 0)).toThrow(RangeError);
    expect(() => attemptFolderName("a", 1.5, 1)).toThrow(RangeError);
    expect(() => attemptFolderName("a", 0, 1)).toThrow("run number 0");
    expect(() => attemptFolderName("a", 1, 2.5)).toThrow("attempt 2.5");
  });

  it("is read from a relative path whose first folder is the attempt's, and past doubled separators", () => {
    expect(runNumberOfPath(attemptFolderName("a", 6, 1))).toBe(6);
    expect(runNumberOfPath(`${attemptFolderName("a", 6, 1)}/work`)).toBe(6);
    expect(runNumberOfPath(`/t//${attemptFolderName("a", 7, 1)}//work/`)).toBe(7);
  });
});

describe("the replay header", () => {
  it("names the run a replayed request stands for", () => {
    expect(replayOfHeader("run-12")).toEqual({ replayed: true, runNumber: 12 });
    expect(replayOfHeader(" run-4 ")).toEqual({ replayed: true, runNumber: 4 });
  });

  it("marks a replay of no run it can read when the value is not exactly run-<n>", () => {
    for (const value of ["xrun-3", "run-3x", "run-0", "run-", "run-3 run-4"])
      expect(replayOfHeader(value)).toEqual({ replayed: true });
  });

  it("is no replay without a single header value", () => {
    expect(replayOfHeader(undefined)).toEqual({ replayed: false });
    expect(replayOfHeader(["run-1", "run-2"])).toEqual({ replayed: false });
  });
});
