import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorsOf } from "../../src/findings.js";
import { normalizeText } from "../../src/skill/frontmatter.js";
import { loadSkill, parseFrontmatter } from "../../src/skill/index.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "./skill-folder.js";

let temp: TempRoot;
beforeEach(async () => {
  temp = await tempRoot();
});
afterEach(() => temp.cleanup());

describe("parseFrontmatter", () => {
  it("splits the frontmatter from the body and numbers body lines from the file", () => {
    const { frontmatter, findings } = parseFrontmatter(
      "---\nname: a\ndescription: b\n---\nline five\n",
      "S.md",
    );
    expect(findings).toEqual([]);
    expect(frontmatter?.data).toEqual({ name: "a", description: "b" });
    expect(frontmatter?.body).toBe("line five\n");
    expect(frontmatter?.bodyStartLine).toBe(5);
  });

  it("accepts a BOM, CRLF line endings, non-ASCII text and a `>-` block scalar", async () => {
    const text = [
      "\uFEFF---",
      "name: résumé-helper",
      "description: >-",
      "  Réécrit des CV en français — 履歴書 too.",
      "  Use when the user asks to polish a résumé.",
      "metadata:",
      "  author: Zoë",
      "---",
      "# Étapes",
      "",
      "Lis le CV.",
      "",
    ].join("\r\n");
    const { frontmatter, findings } = parseFrontmatter(text, "S.md");
    expect(findings).toEqual([]);
    expect(frontmatter?.data).toEqual({
      name: "résumé-helper",
      description: "Réécrit des CV en français — 履歴書 too. Use when the user asks to polish a résumé.",
      metadata: { author: "Zoë" },
    });
    expect(frontmatter?.body).toBe("# Étapes\n\nLis le CV.\n");
  });

  it("keeps `|` block scalars literal", () => {
    const { frontmatter } = parseFrontmatter("---\nname: a\ndescription: |\n  one\n  two\n---\n", "S.md");
    expect(frontmatter?.data).toEqual({ name: "a", description: "one\ntwo\n" });
  });

  it("reports a missing opening `---` with a fix", () => {
    const { frontmatter, findings } = parseFrontmatter("name: a\ndescription: b\n", "S.md");
    expect(frontmatter).toBeUndefined();
    expect(findings).toMatchObject([
      { severity: "error", code: "frontmatter-missing", file: "S.md", location: "line 1" },
    ]);
    expect(findings[0]?.hint).toContain("---");
  });

  it("says so when blank lines come before the opening `---`", () => {
    const { findings } = parseFrontmatter("\n\n---\nname: a\n---\n", "S.md");
    expect(findings[0]?.code).toBe("frontmatter-missing");
    expect(findings[0]?.message).toContain("line 3");
    expect(findings[0]?.hint).toContain("blank lines");
  });

  it("reports a frontmatter that is never closed", () => {
    const { frontmatter, findings } = parseFrontmatter("---\nname: a\ndescription: b\n# Body\n", "S.md");
    expect(frontmatter).toBeUndefined();
    expect(findings).toMatchObject([{ severity: "error", code: "frontmatter-unclosed", location: "line 1" }]);
    expect(findings[0]?.hint).toBeTruthy();
  });

  it("reports a YAML syntax error at its line in SKILL.md", () => {
    const text = "---\nname: a\ndescription: Use when: the user asks\n---\nbody\n";
    const { frontmatter, findings } = parseFrontmatter(text, "S.md");
    expect(frontmatter).toBeUndefined();
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: "error", code: "yaml-syntax", file: "S.md" });
    expect(findings[0]?.location).toMatch(/^line 3, column \d+$/);
    expect(findings[0]?.hint).toContain("quote");
  });

  it("reports a duplicate key at the line of the repeat", () => {
    const text = "---\nname: a\ndescription: b\nname: c\n---\n";
    const { findings } = parseFrontmatter(text, "S.md");
    expect(findings[0]).toMatchObject({ code: "yaml-syntax", location: "line 4, column 1" });
  });
});

describe("loadSkill on frontmatter variants", () => {
  it("loads a CRLF + BOM + non-ASCII + `>-` skill with no findings at all", async () => {
    const text = `\uFEFF${skillMd(
      `name: cafe-menu\ndescription: >-\n  Crée des menus de café ☕.\n  Use when someone wants a café menu.\nlicense: MIT`,
      "# Menu\n\nÉcris le menu.\n",
    ).replace(/\n/g, "\r\n")}`;
    const dir = await temp.skill("cafe-menu", { "SKILL.md": text });
    const { skill, findings } = await loadSkill(dir);
    expect(findings).toEqual([]);
    expect(skill?.description).toBe("Crée des menus de café ☕. Use when someone wants a café menu.");
    expect(skill?.body).toBe("# Menu\n\nÉcris le menu.\n");
  });

  it("reports the YAML error of a skill with the SKILL.md path and returns no skill", async () => {
    const dir = await temp.skill("broken", {
      "SKILL.md": "---\nname: broken\ndescription: [unclosed\n---\nbody\n",
    });
    const { skill, findings } = await loadSkill(dir);
    expect(skill).toBeUndefined();
    const errors = errorsOf(findings);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]?.code).toBe("yaml-syntax");
    expect(errors[0]?.file).toBe(join(dir, "SKILL.md"));
    expect(errors[0]?.location).toMatch(/^line \d+/);
  });

  it("rejects a frontmatter that is not a mapping", async () => {
    const dir = await temp.skill("listy", { "SKILL.md": "---\n- name\n- description\n---\nbody\n" });
    const { skill, findings } = await loadSkill(dir);
    expect(skill).toBeUndefined();
    expect(errorsOf(findings).map((f) => f.code)).toEqual(["frontmatter-not-mapping"]);
  });

  it("rejects an empty frontmatter", async () => {
    const dir = await temp.skill("empty", { "SKILL.md": `---\n---\n${GOOD_DESCRIPTION}\n` });
    const { findings } = await loadSkill(dir);
    expect(errorsOf(findings)[0]).toMatchObject({ code: "frontmatter-not-mapping" });
    expect(errorsOf(findings)[0]?.message).toContain("empty");
  });
});

describe("normalizeText", () => {
  it("drops a byte order mark only at the very start", () => {
    expect(normalizeText("a\uFEFFb")).toBe("a\uFEFFb");
    expect(normalizeText("\uFEFFa")).toBe("a");
  });

  it("turns CRLF and lone CR line endings into LF", () => {
    expect(normalizeText("a\r\nb\rc\n")).toBe("a\nb\nc\n");
  });
});

describe("parseFrontmatter findings", () => {
  it("says a SKILL.md starting with text has no frontmatter, even after blank lines", () => {
    for (const text of ["# Title\n---\n", "\n\n# Title\n"]) {
      expect(parseFrontmatter(text, "S.md").findings).toEqual([
        {
          severity: "error",
          code: "frontmatter-missing",
          file: "S.md",
          location: "line 1",
          message: "SKILL.md has no frontmatter: its first line is not `---`",
          hint: "start SKILL.md with a line `---`, then `name:` and `description:` lines, then a closing `---`",
        },
      ]);
    }
  });

  it("counts whitespace-only lines as blank before a late opening `---`", () => {
    expect(parseFrontmatter(" \t\n---\nname: a\n---\n", "S.md").findings).toEqual([
      {
        severity: "error",
        code: "frontmatter-missing",
        file: "S.md",
        location: "line 1",
        message: "SKILL.md must start with `---`, but the frontmatter starts on line 2",
        hint: "remove the blank lines before the opening `---`",
      },
    ]);
  });

  it("says which line opened a frontmatter that is never closed", () => {
    expect(parseFrontmatter("---\nname: a\n", "S.md").findings).toEqual([
      {
        severity: "error",
        code: "frontmatter-unclosed",
        file: "S.md",
        location: "line 1",
        message: "the frontmatter opened by `---` on line 1 is never closed",
        hint: "add a line `---` after the last frontmatter key, before the instructions",
      },
    ]);
  });

  it("reports one finding for several YAML errors on the same line", () => {
    const { findings } = parseFrontmatter("---\nname: a: b: c\n---\n", "S.md");
    expect(findings.map((f) => f.location)).toEqual(["line 2, column 7"]);
  });

  it("hints at merging a duplicate key", () => {
    const { findings } = parseFrontmatter("---\nname: a\nname: b\n---\n", "S.md");
    expect(findings.map((f) => f.hint)).toEqual([
      "each key may appear only once: remove or merge the repeated key",
    ]);
  });

  it("hints at spaces for a tab-indented key", () => {
    const { findings } = parseFrontmatter("---\nmetadata:\n\tauthor: x\n---\n", "S.md");
    expect(findings.map((f) => [f.location, f.hint])).toEqual([
      ["line 3, column 1", "indent with spaces, not tabs"],
    ]);
  });

  it("hints at quoting for other YAML errors", () => {
    const { findings } = parseFrontmatter('---\nname: "a\n---\n', "S.md");
    expect(findings).toEqual([
      {
        severity: "error",
        code: "yaml-syntax",
        file: "S.md",
        location: "line 2, column 9",
        message: 'invalid YAML in the frontmatter: Missing closing "quote',
        hint: "fix the YAML syntax; quoting values that contain `:`, `#`, `'` or `\"` usually helps",
      },
    ]);
  });

  it("keeps YAML warnings as warnings and still returns the frontmatter", () => {
    const { frontmatter, findings } = parseFrontmatter("---\nname: !foo a\n---\n", "S.md");
    expect(findings).toEqual([
      {
        severity: "warning",
        code: "yaml-warning",
        file: "S.md",
        location: "line 2, column 7",
        message: "Unresolved tag: !foo",
      },
    ]);
    expect(frontmatter?.data).toEqual({ name: "a" });
  });

  it("refuses an alias bomb as bad input instead of expanding it", () => {
    const text = [
      "---",
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "---",
      "",
    ].join("\n");
    const { frontmatter, findings } = parseFrontmatter(text, "S.md");
    expect(frontmatter).toBeUndefined();
    expect(findings).toEqual([
      {
        severity: "error",
        code: "yaml-syntax",
        file: "S.md",
        location: "line 2",
        message:
          "the frontmatter cannot be read: Excessive alias count indicates a resource exhaustion attack",
        hint: "remove the YAML aliases (`*name`) from the frontmatter",
      },
    ]);
  });
});
