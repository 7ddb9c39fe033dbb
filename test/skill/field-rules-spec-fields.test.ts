import { describe, expect, it } from "vitest";
import { checkCompatibility, checkMetadata } from "../../src/skill/field-rules.js";

const FILE = "/skills/pdf-rotate/SKILL.md";

describe("checkCompatibility", () => {
  it("refuses a value that is not a string, saying what it is", () => {
    expect(checkCompatibility(FILE, 3.11, "line 4")).toEqual([
      {
        severity: "error",
        code: "compatibility-type",
        file: FILE,
        location: "line 4",
        message: "`compatibility` must be a string, not number",
        hint: "quote the value",
      },
    ]);
  });

  it("refuses a value over 500 characters, giving its length", () => {
    expect(checkCompatibility(FILE, "é".repeat(501), "line 4")).toEqual([
      {
        severity: "error",
        code: "compatibility-too-long",
        file: FILE,
        location: "line 4",
        message: "`compatibility` is 501 characters; the limit is 500",
        hint: "shorten it to the essential requirements",
      },
    ]);
  });
});

describe("checkMetadata", () => {
  it("refuses metadata that is not a map, saying what it is", () => {
    expect(checkMetadata(FILE, ["a"], "line 5", () => undefined)).toEqual([
      {
        severity: "error",
        code: "metadata-type",
        file: FILE,
        location: "line 5",
        message: "`metadata` must be a map of strings, not list",
        hint: "write `metadata` as a map of strings",
      },
    ]);
  });

  it("asks to flatten a nested entry and to quote a number or an empty entry, at each entry's line", () => {
    const lines: Record<string, string> = { nested: "line 6", count: "line 8" };
    const findings = checkMetadata(
      FILE,
      { author: "me", nested: { a: "b" }, empty: null, count: 2 },
      "line 5",
      (key) => lines[key],
    );
    expect(findings).toEqual([
      {
        severity: "error",
        code: "metadata-type",
        file: FILE,
        location: "line 6",
        message: "`metadata.nested` must be a string, not map",
        hint: "flatten it into string values",
      },
      {
        severity: "error",
        code: "metadata-type",
        file: FILE,
        location: "line 5",
        message: "`metadata.empty` must be a string, not null",
        hint: "quote the value",
      },
      {
        severity: "error",
        code: "metadata-type",
        file: FILE,
        location: "line 8",
        message: "`metadata.count` must be a string, not number",
        hint: "quote the value",
      },
    ]);
  });
});
