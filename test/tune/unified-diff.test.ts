import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../src/tune/index.js";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", "a/x", "b/x")).toBe("");
  });

  it("writes one hunk with three lines of context around a change", () => {
    const before = `${lines(10).join("\n")}\n`;
    const after = before.replace("line 5\n", "line five\n");
    expect(unifiedDiff(before, after, "a/s/SKILL.md", "b/s/SKILL.md")).toBe(
      [
        "--- a/s/SKILL.md",
        "+++ b/s/SKILL.md",
        "@@ -2,7 +2,7 @@",
        " line 2",
        " line 3",
        " line 4",
        "-line 5",
        "+line five",
        " line 6",
        " line 7",
        " line 8",
        "",
      ].join("\n"),
    );
  });

  it("writes separate hunks for changes far apart, and merges near ones", () => {
    const before = lines(20);
    const far = [...before];
    far[1] = "changed 2";
    far[17] = "changed 18";
    const diff = unifiedDiff(`${before.join("\n")}\n`, `${far.join("\n")}\n`, "a", "b");
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    expect(diff).toContain("@@ -1,5 +1,5 @@");
    expect(diff).toContain("@@ -15,6 +15,6 @@");
    const near = [...before];
    near[4] = "x";
    near[8] = "y";
    expect(unifiedDiff(before.join("\n"), near.join("\n"), "a", "b").match(/^@@/gm)).toHaveLength(1);
  });

  it("shows an added file against /dev/null", () => {
    expect(unifiedDiff("", "one\ntwo\n", "/dev/null", "b/s/new.md")).toBe(
      "--- /dev/null\n+++ b/s/new.md\n@@ -0,0 +1,2 @@\n+one\n+two\n",
    );
  });
});
