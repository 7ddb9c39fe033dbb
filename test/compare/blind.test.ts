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

  it("leaves ordinary text alone", () => {
    const text = "The skill says: write the report with care.";
    expect(blindText(text, [runDir])).toBe(text);
  });
});
