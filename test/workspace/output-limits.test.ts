import { describe, expect, it } from "vitest";
import { COLLECT_FLOOR_MS, collectDeadline, formatBytes, parseByteSize } from "../../src/workspace/index.js";

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
