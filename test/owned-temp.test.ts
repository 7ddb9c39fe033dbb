import { readlinkSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ownedTempPrefix, pidNamespace, startOf } from "../src/owned-temp.js";

describe("startOf", () => {
  it("reads this process's start from /proc, and names it in a temp folder's prefix", () => {
    const start = startOf("self");
    expect(start).toMatch(/^\d+$/);
    expect(ownedTempPrefix("net")).toBe(`skillgym-net.${process.pid}.${start}.${pidNamespace()}-`);
  });

  it.skipIf(process.platform !== "linux")("names this process's PID namespace by its inode", () => {
    expect(`pid:[${pidNamespace()}]`).toBe(readlinkSync("/proc/self/ns/pid"));
    expect(pidNamespace("/proc/self/ns/pid")).toMatch(/^\d+$/);
    expect(pidNamespace("/no/proc/self/ns/pid")).toBe("0");
  });

  it("has no start for a process that does not exist", () => {
    expect(startOf(2 ** 30)).toBeUndefined();
  });

  it("is 0 where there is no /proc", () => {
    const platform = process.platform;
    Object.defineProperty(process, "platform", { value: "darwin" });
    try {
      expect(startOf("self")).toBe("0");
      expect(pidNamespace()).toBe("0");
    } finally {
      Object.defineProperty(process, "platform", { value: platform });
    }
  });
});
