import { afterEach, describe, expect, it, vi } from "vitest";
import {
  COLLECT_FLOOR_MS,
  CollectStopped,
  checkDeadline,
  collectDeadline,
  formatBytes,
  parseByteSize,
  tooManyBytes,
} from "../../src/workspace/output-limits.js";

describe("parseByteSize", () => {
  it("reads sizes in bytes, KB, MB, GB and TB as powers of 1024, in any case, with decimals", () => {
    expect(parseByteSize("200MB")).toBe(200 * 1024 ** 2);
    expect(parseByteSize("50MB")).toBe(50 * 1024 ** 2);
    expect(parseByteSize("1GB")).toBe(1024 ** 3);
    expect(parseByteSize("1.5 gb")).toBe(1.5 * 1024 ** 3);
    expect(parseByteSize("512kb")).toBe(512 * 1024);
    expect(parseByteSize("2MiB")).toBe(2 * 1024 ** 2);
    expect(parseByteSize("1000")).toBe(1000);
    expect(parseByteSize("1000B")).toBe(1000);
    expect(parseByteSize("1TB")).toBe(1024 ** 4);
  });

  it("refuses what is not a size above 0", () => {
    for (const bad of [
      "",
      "MB",
      "-1MB",
      "0",
      "0MB",
      "12XB",
      "1 2MB",
      "1e3",
      "ten MB",
      "1.MB",
      "99999999999TB",
    ])
      expect(parseByteSize(bad), bad).toBeUndefined();
  });
});

describe("formatBytes", () => {
  it("says a size the way the limits are written", () => {
    expect(formatBytes(3 * 1024 ** 3)).toBe("3.0 GB");
    expect(formatBytes(50 * 1024 ** 2)).toBe("50 MB");
    expect(formatBytes(200 * 1024 ** 2)).toBe("200 MB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(12)).toBe("12 B");
  });

  it("switches unit at exactly one of it, and drops the decimal from 10 up", () => {
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1.0 KB");
    expect(formatBytes(9.95 * 1024)).toBe("9.9 KB");
    expect(formatBytes(10 * 1024)).toBe("10 KB");
  });
});

describe("collectDeadline", () => {
  it("gives collecting what is left of the run's time", () => {
    expect(collectDeadline(600_000, 100_000, 1_000)).toEqual({ at: 501_000, timeoutMs: 600_000 });
  });

  it("never less than the floor, even when the agent used all its time", () => {
    expect(collectDeadline(60_000, 60_000, 1_000).at).toBe(1_000 + COLLECT_FLOOR_MS);
    expect(collectDeadline(60_000, 59_000, 0).at).toBe(COLLECT_FLOOR_MS);
    expect(collectDeadline(60_000, 49_999, 0).at).toBe(10_001);
  });
});

describe("tooManyBytes", () => {
  const limits = { totalBytes: 1024 ** 2, fileBytes: 1024, files: 5 };

  it("says how many files were counted, one file or several", () => {
    expect(tooManyBytes(2 * 1024 ** 2, 1, limits).message).toBe(
      "outputs over the limit: the files created or changed come to 2.0 MB or more (apparent size; counting stopped after 1 file), the total allowed is 1.0 MB (--max-output)",
    );
    expect(tooManyBytes(2 * 1024 ** 2, 1200, limits).message).toContain(
      "counting stopped after 1,200 files)",
    );
  });

  it("is a CollectStopped error over the output limit", () => {
    const error = tooManyBytes(2 * 1024 ** 2, 1, limits);
    expect(error).toBeInstanceOf(CollectStopped);
    expect(error.name).toBe("CollectStopped");
    expect(error.code).toBe("OUTPUT_LIMIT");
  });
});

describe("checkDeadline", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets collecting go on up to the deadline itself, and stops it a millisecond after", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const deadline = { at: 50_000, timeoutMs: 600_000 };
    vi.setSystemTime(50_000);
    expect(() => checkDeadline(deadline, "hashing")).not.toThrow();
    vi.setSystemTime(50_001);
    expect(() => checkDeadline(deadline, "hashing")).toThrow(
      new CollectStopped(
        "COLLECT_TIMEOUT",
        "collecting the outputs ran past the run's time limit of 600 s (hashing); raise --timeout or the eval's timeout",
      ),
    );
  });

  it("never stops a collection without a deadline", () => {
    expect(() => checkDeadline(undefined, "hashing")).not.toThrow();
  });
});
