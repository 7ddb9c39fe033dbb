import { describe, expect, test } from "vitest";
import { toWorkspacePath } from "../../src/suite/workspace-path.js";

describe("toWorkspacePath", () => {
  test.each([
    ["out.txt", "out.txt"],
    ["a\\b.txt", "a/b.txt"],
    ["./a//b/../c.txt", "a/c.txt"],
    ["out/", "out"],
    ["out///", "out"],
    ["notes/C:x.txt", "notes/C:x.txt"],
    ["a/..b", "a/..b"],
    ["..b", "..b"],
  ])("%j is the workspace path %j", (entry, path) => {
    expect(toWorkspacePath(entry)).toEqual({ ok: true, path });
  });

  test.each(["/etc/passwd", "\\share\\x", "C:/x", "c:x"])("%j is refused as absolute", (entry) => {
    expect(toWorkspacePath(entry)).toEqual({
      ok: false,
      reason: "must be a relative path, not an absolute one",
    });
  });

  test.each(["..", "../x", "a/../../x", "../"])("%j is refused for climbing out", (entry) => {
    expect(toWorkspacePath(entry)).toEqual({
      ok: false,
      reason: "must stay inside the workspace (it climbs out with '..')",
    });
  });

  test.each([".", "", "./", "a/.."])("%j is refused as the workspace itself", (entry) => {
    expect(toWorkspacePath(entry)).toEqual({
      ok: false,
      reason: "must name a file, not the workspace itself",
    });
  });
});
