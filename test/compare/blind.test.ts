import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { assignLabels, blindText, seededRng } from "../../src/compare/blind.js";

describe("assignLabels", () => {
  it("gives each run one label", () => {
    for (let i = 0; i < 20; i++) {
      const labels = assignLabels();
      expect([labels.A, labels.B].sort()).toEqual(["first", "second"]);
    }
  });

  it("is reproducible from a seed and differs between seeds", () => {
    const run = (seed: number) => {
      const rng = seededRng(seed);
      return Array.from({ length: 32 }, () => assignLabels(rng).A).join(",");
    };
    expect(run(42)).toBe(run(42));
    expect(run(42)).not.toBe(run(43));
  });

  it("gives the first run label A below one half and label B from one half up", () => {
    expect(assignLabels(() => 0)).toEqual({ A: "first", B: "second" });
    expect(assignLabels(() => 0.4999)).toEqual({ A: "first", B: "second" });
    expect(assignLabels(() => 0.5)).toEqual({ A: "second", B: "first" });
    expect(assignLabels(() => 0.99)).toEqual({ A: "second", B: "first" });
  });
});

describe("blindText", () => {
  const runDir = path.join("/data", "ws", "iteration-1", "eval-1", "with_skill", "run-1");
  const other = path.join("/data", "ws", "iteration-1", "eval-1", "without_skill", "run-1");

  it("shows output files relative to outputs/ and hides the run folders", () => {
    const text = `see ${runDir}/outputs/report.md and ${other}/outputs/a/b.txt in ${runDir}`;
    expect(blindText(text, [runDir, other])).toBe("see report.md and a/b.txt in <run>");
  });

  it("hides configuration names and workspace folders named after them", () => {
    const text = "cwd /tmp/skillgym-x/1-without_skill-1-a1/src/x.ts; the with_skill run; an old-skill copy";
    const shown = blindText(text, [runDir]);
    expect(shown).toBe("cwd <workspace>/src/x.ts; the [hidden] run; an [hidden] copy");
    expect(shown).not.toMatch(/with_?out|skill-1/);
  });

  it("shows the outputs folder itself as the current folder", () => {
    expect(blindText(`cd ${runDir}/outputs && ls`, [runDir])).toBe("cd . && ls");
  });

  it("hides a run folder whose path another run's path starts with, in either order", () => {
    const short = path.join("/data", "ws", "eval-1", "with_skill", "run-1");
    const long = `${short}0`;
    const text = `${long}/outputs/a.md ${short}/outputs/b.md ${long}/log`;
    expect(blindText(text, [short, long])).toBe("a.md b.md <run>/log");
    expect(blindText(text, [long, short])).toBe("a.md b.md <run>/log");
  });

  it("hides a run folder with backslashes also written with slashes or escaped", () => {
    const windowsLike = "/data/C:\\ws\\run-1";
    const slashed = "/data/C:/ws/run-1";
    const escaped = "/data/C:\\\\ws\\\\run-1";
    const text = `${windowsLike}\\outputs x ${slashed}/outputs/a.md ${escaped}`;
    expect(blindText(text, [windowsLike])).toBe("<run>\\outputs x a.md <run>");
  });

  it("hides configuration words inside a word, and paths named after them up to the next break", () => {
    expect(blindText("an 1-with_skill-x copy", [runDir])).toBe("an 1-[hidden]-x copy");
    expect(blindText("cwd /tmp/1-with_skill-1 and more", [runDir])).toBe("cwd <workspace> and more");
    expect(blindText("cwd /tmp/1-with_skill-without_skill-1/src", [runDir])).toBe("cwd <workspace>/src");
    expect(blindText("with_skillwith_skill", [runDir])).toBe("[hidden][hidden]");
  });

  it("hides a workspace path at the very start or the very end of the text", () => {
    expect(blindText("/tmp/1-with_skill-1/src/x.ts was written", [runDir])).toBe(
      "<workspace>/src/x.ts was written",
    );
    expect(blindText("cwd /tmp/1-with_skill-1", [runDir])).toBe("cwd <workspace>");
    expect(blindText("cwd /tmp/1-with_skill-1/", [runDir])).toBe("cwd <workspace>/");
    expect(blindText("cwd /tmp/with_skill/src/x.ts", [runDir])).toBe("cwd <workspace>/src/x.ts");
  });

  it("leaves ordinary text alone", () => {
    const text = "The skill says: write the report with care.";
    expect(blindText(text, [runDir])).toBe(text);
  });
});
