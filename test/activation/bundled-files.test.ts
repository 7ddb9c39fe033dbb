import { describe, expect, it } from "vitest";
import { bundledKind, filesNamed, inputStrings } from "../../src/activation/bundled-files.js";

describe("bundledKind", () => {
  it("names a file by the folder it sits in", () => {
    expect(bundledKind("SKILL.md")).toBe("skill_md");
    expect(bundledKind("references/forms.md")).toBe("reference");
    expect(bundledKind("reference/forms.md")).toBe("reference");
    expect(bundledKind("scripts/fill.py")).toBe("script");
    expect(bundledKind("assets/logo.png")).toBe("asset");
    expect(bundledKind("notes.md")).toBe("other");
    expect(bundledKind("docs/SKILL.md")).toBe("other");
  });
});

describe("inputStrings", () => {
  it("returns a lone string as it is", () => {
    expect(inputStrings("ls")).toEqual(["ls"]);
  });

  it("collects the strings of nested objects and argument lists, in order", () => {
    const input = {
      command: "python",
      args: ["scripts/fill.py", ["--out", "a.pdf"]],
      options: { cwd: "/w" },
    };
    expect(inputStrings(input)).toEqual(["python", "scripts/fill.py", "--out", "a.pdf", "/w"]);
  });

  it("skips nulls, numbers and booleans", () => {
    expect(inputStrings({ path: "a.md", offset: 3, limit: null, all: true })).toEqual(["a.md"]);
  });
});

describe("filesNamed", () => {
  const files = ["SKILL.md", "scripts/fill.py"];

  it("finds a file under a folder at the very start of the text", () => {
    expect(filesNamed("pdf/SKILL.md", ["pdf"], files)).toEqual(["SKILL.md"]);
  });

  it("finds a file under a relative folder after a space, a slash, a quote or an equals sign", () => {
    expect(filesNamed("cat pdf/SKILL.md", ["pdf"], files)).toEqual(["SKILL.md"]);
    expect(filesNamed("/w/.claude/skills/pdf/SKILL.md", ["pdf"], files)).toEqual(["SKILL.md"]);
    expect(filesNamed("python 'pdf/scripts/fill.py'", ["pdf"], files)).toEqual(["scripts/fill.py"]);
    expect(filesNamed("--file=pdf/SKILL.md", ["pdf"], files)).toEqual(["SKILL.md"]);
  });

  it("does not take a longer folder name ending in the relative folder for it", () => {
    expect(filesNamed("cat mypdf/SKILL.md", ["pdf"], files)).toEqual([]);
  });

  it("does not take a longer file name starting with the file for it", () => {
    expect(filesNamed("cat pdf/SKILL.md.bak", ["pdf"], files)).toEqual([]);
  });

  it("finds a later mention after one that does not count", () => {
    expect(filesNamed("diff mypdf/SKILL.md pdf/SKILL.md", ["pdf"], files)).toEqual(["SKILL.md"]);
  });

  it("finds a file under an absolute folder whatever comes before it", () => {
    expect(filesNamed("wc -l </home/u/skills/pdf/SKILL.md", ["/home/u/skills/pdf"], files)).toEqual([
      "SKILL.md",
    ]);
  });

  it("finds a file under a relative folder of several segments", () => {
    expect(filesNamed("cat /w/.claude/skills/pdf/SKILL.md", [".claude/skills/pdf"], files)).toEqual([
      "SKILL.md",
    ]);
  });

  it("reads a folder given with trailing slashes as the folder itself", () => {
    const text = "cat /home/u/skills/pdf/SKILL.md";
    expect(filesNamed(text, ["/home/u/skills/pdf/"], files)).toEqual(["SKILL.md"]);
    expect(filesNamed(text, ["/home/u/skills/pdf//"], files)).toEqual(["SKILL.md"]);
  });

  it("names each file once, in the order of the files, whichever folder it is found under", () => {
    const text = "python pdf/scripts/fill.py /home/u/skills/pdf/SKILL.md pdf-sg-1/SKILL.md";
    expect(filesNamed(text, ["pdf", "pdf-sg-1", "/home/u/skills/pdf"], files)).toEqual([
      "SKILL.md",
      "scripts/fill.py",
    ]);
  });
});
