import { describe, expect, it } from "vitest";
import { checkName } from "../../src/skill/field-rules.js";

const FILE = "/skills/pdf-rotate/SKILL.md";

const hintFor = (name: string, folder = name): string | undefined =>
  checkName(FILE, folder, name, "line 2").find((f) => f.code === "name-charset")?.hint;

describe("checkName", () => {
  it("reports a key written with no value as missing, suggesting the folder's name", () => {
    expect(checkName(FILE, "pdf-rotate", null, "line 2")).toEqual([
      {
        severity: "error",
        code: "name-missing",
        file: FILE,
        location: "line 2",
        message: "the frontmatter has no `name`",
        hint: "add `name: pdf-rotate` (the folder's name)",
      },
    ]);
  });

  it("refuses a name that is not a string, saying what it is", () => {
    expect(checkName(FILE, "pdf-rotate", 12, "line 2")).toEqual([
      {
        severity: "error",
        code: "name-type",
        file: FILE,
        location: "line 2",
        message: "`name` must be a string, not number",
        hint: "quote the value",
      },
    ]);
    expect(checkName(FILE, "pdf-rotate", ["a"], "line 2")).toMatchObject([
      { message: "`name` must be a string, not list", hint: "write `name` as a string" },
    ]);
  });

  it("refuses an empty name with only a length error, suggesting the folder's name", () => {
    expect(checkName(FILE, "pdf-rotate", "", "line 2")).toEqual([
      {
        severity: "error",
        code: "name-length",
        file: FILE,
        location: "line 2",
        message: "`name` must be 1–64 characters, not 0",
        hint: "set `name: pdf-rotate`",
      },
    ]);
  });

  it("asks to shorten a name over 64 characters", () => {
    const name = "a".repeat(65);
    expect(checkName(FILE, name, name, "line 2")).toEqual([
      {
        severity: "error",
        code: "name-length",
        file: FILE,
        location: "line 2",
        message: "`name` must be 1–64 characters, not 65",
        hint: "shorten the name (and rename the folder to match)",
      },
    ]);
  });

  it("refuses a name that starts with valid characters and goes on with others", () => {
    expect(checkName(FILE, "pdf_rotate", "pdf_rotate", "line 2")).toEqual([
      {
        severity: "error",
        code: "name-charset",
        file: FILE,
        location: "line 2",
        message: '`name` "pdf_rotate" may only hold a–z, 0–9 and "-"',
        hint: "use lowercase letters, digits and single hyphens, e.g. `pdf-rotate`",
      },
    ]);
  });

  it("refuses a hyphen at either end with a message and a suggestion", () => {
    expect(checkName(FILE, "rotate-", "rotate-", "line 2")).toEqual([
      {
        severity: "error",
        code: "name-hyphen-edge",
        file: FILE,
        location: "line 2",
        message: '`name` "rotate-" must not start or end with "-"',
        hint: "use lowercase letters, digits and single hyphens, e.g. `rotate`",
      },
    ]);
  });

  it("refuses a double hyphen with a suggestion", () => {
    expect(checkName(FILE, "pdf--rotate", "pdf--rotate", "line 2")).toEqual([
      {
        severity: "error",
        code: "name-double-hyphen",
        file: FILE,
        location: "line 2",
        message: '`name` "pdf--rotate" must not contain "--"',
        hint: "use lowercase letters, digits and single hyphens, e.g. `pdf-rotate`",
      },
    ]);
  });

  it("warns on a name that differs from the folder's, naming both", () => {
    expect(checkName(FILE, "pdf-tools", "pdf-rotate", "line 2")).toEqual([
      {
        severity: "warning",
        code: "name-mismatch",
        file: FILE,
        location: "line 2",
        message:
          '`name` "pdf-rotate" differs from the folder\'s name "pdf-tools"; runs and packages use "pdf-rotate"',
        hint: 'rename the folder to "pdf-rotate" (the Agent Skills spec asks for a match), or set `name: pdf-tools`',
      },
    ]);
  });
});

describe("the name suggested for an invalid name", () => {
  it("turns each run of other characters into one hyphen", () => {
    expect(hintFor("PDF__Rotate  Pages")).toBe(
      "use lowercase letters, digits and single hyphens, e.g. `pdf-rotate-pages`",
    );
  });

  it("drops other characters at either end", () => {
    expect(hintFor("-Rotate!")).toBe("use lowercase letters, digits and single hyphens, e.g. `rotate`");
  });

  it("is cut to 64 characters, with no hyphen left at the cut", () => {
    const name = `${"A".repeat(63)} B`;
    expect(hintFor(name)).toBe(
      `use lowercase letters, digits and single hyphens, e.g. \`${"a".repeat(63)}\``,
    );
    const long = `X-${"Y".repeat(70)}`;
    expect(hintFor(long)).toBe(
      `use lowercase letters, digits and single hyphens, e.g. \`x-${"y".repeat(62)}\``,
    );
  });

  it("keeps inner hyphens when it drops one at the cut", () => {
    const name = `A B ${"C".repeat(59)} D`;
    expect(hintFor(name)).toBe(
      `use lowercase letters, digits and single hyphens, e.g. \`a-b-${"c".repeat(59)}\``,
    );
  });

  it("falls back to the folder's name when nothing of the name is left", () => {
    expect(hintFor("___", "pdf-rotate")).toBe(
      "use lowercase letters, digits and single hyphens, e.g. `pdf-rotate`",
    );
  });
});
