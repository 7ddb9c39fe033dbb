import { describe, expect, it } from "vitest";
import { checkDescription, looksEnglish } from "../../src/skill/field-rules.js";

const FILE = "/skills/pdf-rotate/SKILL.md";
const WHEN = "Rotates PDF pages. Use when the user asks to rotate a PDF.";

describe("checkDescription", () => {
  it("reports a key written with no value as missing", () => {
    expect(checkDescription(FILE, null, "line 3")).toEqual([
      {
        severity: "error",
        code: "description-missing",
        file: FILE,
        location: "line 3",
        message: "the frontmatter has no `description`",
        hint: "add a `description:` that says what the skill does and when to use it",
      },
    ]);
  });

  it("refuses a description that is not a string, saying what it is", () => {
    expect(checkDescription(FILE, ["a", "b"], "line 3")).toEqual([
      {
        severity: "error",
        code: "description-type",
        file: FILE,
        location: "line 3",
        message: "`description` must be a string, not list",
        hint: "write `description` as a string",
      },
    ]);
  });

  it("refuses a blank description, saying why it matters", () => {
    expect(checkDescription(FILE, " \n ", "line 3")).toEqual([
      {
        severity: "error",
        code: "description-empty",
        file: FILE,
        location: "line 3",
        message: "`description` is empty",
        hint: "say what the skill does and when to use it; the agent picks skills by this text",
      },
    ]);
  });

  it("refuses a description over 1024 characters, giving its length", () => {
    const description = `${WHEN} ${"x".repeat(1024 - WHEN.length)}`;
    expect(checkDescription(FILE, description, "line 3")).toEqual([
      {
        severity: "error",
        code: "description-too-long",
        file: FILE,
        location: "line 3",
        message: "`description` is 1025 characters; the limit is 1024",
        hint: "shorten it; move detail into the body of SKILL.md",
      },
    ]);
  });

  it("refuses angle brackets, saying why", () => {
    expect(checkDescription(FILE, "Use when the user pastes <html>.", "line 3")).toEqual([
      {
        severity: "error",
        code: "description-angle-brackets",
        file: FILE,
        location: "line 3",
        message: "`description` must not contain `<` or `>`",
        hint: "reword without angle brackets (agents embed the description in XML-like prompts)",
      },
    ]);
  });

  it("warns on an English description with no trigger words, suggesting one", () => {
    expect(checkDescription(FILE, "A toolkit for the PDF files.", "line 3")).toEqual([
      {
        severity: "warning",
        code: "description-no-when",
        file: FILE,
        location: "line 3",
        message: "`description` does not say when to use the skill",
        hint: 'add a trigger sentence such as "Use when the user asks to …"',
      },
    ]);
  });

  it("leaves a description in another script alone, even with a few English words in it", () => {
    expect(checkDescription(FILE, "Обрабатывает the файлы and the таблицы", "line 3")).toEqual([]);
  });
});

describe("looksEnglish", () => {
  // Letters only are weighed: 19 of 20 letters in a–z is English enough, 17 of 18 is not.
  it.each([
    ["Converts the file → PDF → PNG.", true],
    ["Café and the tables of it", true],
    ["Café and the tables of", false],
    ["Обрабатывает the файлы and the таблицы", false],
    ["Rotates PDF pages quickly", false],
    ["le the", false],
    ["Convertit le fichier pour la table", false],
    ["123 456", false],
    ["", false],
  ])("%j → %s", (text, expected) => {
    expect(looksEnglish(text)).toBe(expected);
  });
});
