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

  it("merges changes 7 ops apart into one hunk and keeps 8 apart as two (3 lines of context each)", () => {
    const before = lines(30);
    const seven = [...before];
    seven[10] = "x";
    seven[17] = "y";
    expect(unifiedDiff(`${before.join("\n")}\n`, `${seven.join("\n")}\n`, "a", "b").match(/^@@.*/gm)).toEqual(
      ["@@ -8,14 +8,14 @@"],
    );
    const eight = [...before];
    eight[10] = "x";
    eight[18] = "y";
    expect(unifiedDiff(`${before.join("\n")}\n`, `${eight.join("\n")}\n`, "a", "b").match(/^@@.*/gm)).toEqual(
      ["@@ -8,7 +8,7 @@", "@@ -16,7 +16,7 @@"],
    );
  });

  it("takes the number of context lines, and shows a removed first line against the line before it", () => {
    expect(unifiedDiff("a\nb\nc\nd\n", "b\nc\nd\n", "old", "new", 1)).toBe(
      "--- old\n+++ new\n@@ -1,2 +1 @@\n-a\n b\n",
    );
    expect(unifiedDiff("a\nb\nc\n", "a\nB\nc\n", "old", "new", 0)).toBe(
      "--- old\n+++ new\n@@ -2 +2 @@\n-b\n+B\n",
    );
    expect(unifiedDiff("one\ntwo\n", "", "a/s/gone.md", "/dev/null")).toBe(
      "--- a/s/gone.md\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n",
    );
  });

  it("prefers removing before adding where both keep the longest common part, and ends with the rest", () => {
    expect(unifiedDiff("a\nb\nc", "a\nc\nd\ne", "o", "n")).toBe(
      "--- o\n+++ n\n@@ -1,3 +1,4 @@\n a\n-b\n c\n+d\n+e\n",
    );
    expect(unifiedDiff("x\ny\n", "y\nx\n", "o", "n")).toBe("--- o\n+++ n\n@@ -1,2 +1,2 @@\n-x\n y\n+x\n");
    expect(unifiedDiff("p\nq\n", "q\np\nr\n", "o", "n")).toBe(
      "--- o\n+++ n\n@@ -1,2 +1,3 @@\n-p\n q\n+p\n+r\n",
    );
  });

  it("a text without a last newline differs from one with it only by that; a lone newline is one empty line", () => {
    expect(unifiedDiff("a", "a\n", "o", "n")).toBe("");
    expect(unifiedDiff("", "\n", "o", "n")).toBe("--- o\n+++ n\n@@ -0,0 +1 @@\n+\n");
  });

  it("shows two files too big to compare line by line as replaced whole", () => {
    const big = (tag: string) =>
      `${Array.from({ length: 2_001 }, (_, i) => (i === 1_000 ? tag : `l${i}`)).join("\n")}\n`;
    const diff = unifiedDiff(big("A"), big("B"), "o", "n", 0);
    const hunk = diff.split("\n").slice(2, 3);
    expect(hunk).toEqual(["@@ -1,2001 +1,2001 @@"]);
    expect(diff.split("\n").filter((l) => l.startsWith("-")).length).toBe(2_002);
    // Just under the limit (2,000 × 2,000 pairs) the diff is line by line.
    const fits = (tag: string) =>
      `${Array.from({ length: 2_000 }, (_, i) => (i === 1_000 ? tag : `l${i}`)).join("\n")}\n`;
    expect(unifiedDiff(fits("A"), fits("B"), "o", "n", 0)).toBe("--- o\n+++ n\n@@ -1001 +1001 @@\n-A\n+B\n");
  });

  it("shows a line added at the top as that one addition, the rest kept", () => {
    expect(unifiedDiff("x\ny\n", "z\nx\ny\n", "o", "n")).toBe("--- o\n+++ n\n@@ -1,2 +1,3 @@\n+z\n x\n y\n");
    expect(unifiedDiff("a\nb\nc\nd\n", "a\nnew\nb\nc\nd\n", "o", "n")).toBe(
      "--- o\n+++ n\n@@ -1,4 +1,5 @@\n a\n+new\n b\n c\n d\n",
    );
  });

  it("removes the lines after the new text's end, even one equal to a kept line", () => {
    expect(unifiedDiff("x\ny\nx\n", "x\n", "o", "n")).toBe("--- o\n+++ n\n@@ -1,3 +1 @@\n x\n-y\n-x\n");
  });

  it("is empty for two equal texts too big to compare line by line", () => {
    const big = `${Array.from({ length: 2_001 }, (_, i) => `l${i}`).join("\n")}\n`;
    expect(unifiedDiff(big, `${big}`, "o", "n")).toBe("");
  });

  it("keeps the longest common part: lines put between two kept ones are only additions, a moved block stays", () => {
    expect(unifiedDiff("top\nend\n", "top\none\ntwo\ntwo\nend\n", "o", "n")).toBe(
      "--- o\n+++ n\n@@ -1,2 +1,5 @@\n top\n+one\n+two\n+two\n end\n",
    );
    expect(unifiedDiff("b\na\nc\nc\n", "c\nc\nb\n", "o", "n")).toBe(
      "--- o\n+++ n\n@@ -1,4 +1,3 @@\n-b\n-a\n c\n c\n+b\n",
    );
    expect(unifiedDiff("c\na\nc\nb\nb\n", "b\nb\na\n", "o", "n")).toBe(
      "--- o\n+++ n\n@@ -1,5 +1,3 @@\n-c\n-a\n-c\n b\n b\n+a\n",
    );
    expect(unifiedDiff("b\na\nc\n", "c\nc\nb\nc\nb\n", "o", "n")).toBe(
      "--- o\n+++ n\n@@ -1,3 +1,5 @@\n+c\n+c\n b\n-a\n c\n+b\n",
    );
  });
});
