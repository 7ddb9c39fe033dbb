import { afterEach, describe, expect, it } from "vitest";
import { outputsForJudge } from "../../src/grade/judge-outputs.js";
import { makeWorkspace, removeWorkspace, type TreeSpec } from "./checks/workspace.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await removeWorkspace(dir);
  dir = undefined;
});

async function outputsOf(tree: TreeSpec) {
  dir = await makeWorkspace(tree);
  return outputsForJudge(dir);
}

// `file-01.txt` … in name order, each holding its own number.
function numberedFiles(count: number): TreeSpec {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`file-${String(i + 1).padStart(2, "0")}.txt`, `${i + 1}`]),
  );
}

describe("outputsForJudge", () => {
  it("shows each text file whole, by path in order, and names a binary file with its size only", async () => {
    const files = await outputsOf({
      "b.txt": "second",
      "a/deep.md": "# first",
      "chart.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
    });
    expect(files).toEqual([
      { path: "a/deep.md", content: "# first" },
      { path: "b.txt", content: "second" },
      { path: "chart.png", content: "(binary file, 7 bytes)" },
    ]);
  });

  it("shows a text file of exactly 20,000 characters whole, and clips a longer one saying how much is left out", async () => {
    const whole = "w".repeat(20_000);
    const long = `${"x".repeat(20_000)}TAIL`;
    const files = await outputsOf({ "whole.txt": whole, "long.txt": long });
    expect(files).toEqual([
      { path: "long.txt", content: `${"x".repeat(20_000)}\n… (4 more characters)` },
      { path: "whole.txt", content: whole },
    ]);
  });

  it("shows 40 files without a note", async () => {
    const files = await outputsOf(numberedFiles(40));
    expect(files).toHaveLength(40);
    expect(files.at(-1)).toEqual({ path: "file-40.txt", content: "40" });
  });

  it("shows the first 40 files and counts the rest", async () => {
    const files = await outputsOf(numberedFiles(43));
    expect(files).toHaveLength(41);
    expect(files.slice(0, 40).map((file) => file.content)).toEqual(
      Array.from({ length: 40 }, (_, i) => `${i + 1}`),
    );
    expect(files[40]).toEqual({ path: "…", content: "(3 more files not shown)" });
  });

  it("shows nothing for a run that left no outputs folder", async () => {
    dir = await makeWorkspace({});
    expect(await outputsForJudge(`${dir}/outputs`)).toEqual([]);
  });
});
