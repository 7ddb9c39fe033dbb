import { describe, expect, it } from "vitest";
import { describeType, error, isRecord, typeError, warning } from "../../src/skill/rule-findings.js";

describe("describeType", () => {
  it("names a value's YAML kind", () => {
    expect([null, [1], { a: 1 }, 3, true, "text"].map(describeType)).toEqual([
      "null",
      "list",
      "map",
      "number",
      "boolean",
      "string",
    ]);
  });
});

describe("isRecord", () => {
  it("takes only a plain map", () => {
    expect([{ a: 1 }, null, [1], new Map(), "text", 3].map(isRecord)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("typeError", () => {
  it("says to quote a number or a boolean", () => {
    expect(typeError("SKILL.md", "bad-type", "line 2", "name", "a string", 5)).toEqual({
      severity: "error",
      code: "bad-type",
      file: "SKILL.md",
      location: "line 2",
      message: "`name` must be a string, not number",
      hint: "quote the value",
    });
    expect(typeError("SKILL.md", "bad-type", "line 2", "name", "a string", false).hint).toBe(
      "quote the value",
    );
  });

  it("says how to write any other value", () => {
    expect(typeError("SKILL.md", "bad-type", undefined, "allowed-tools", "a string", ["Read"])).toEqual({
      severity: "error",
      code: "bad-type",
      file: "SKILL.md",
      message: "`allowed-tools` must be a string, not list",
      hint: "write `allowed-tools` as a string",
    });
  });
});

describe("error and warning", () => {
  it("leave out a location and a hint they were not given", () => {
    expect(error("SKILL.md", "c", undefined, "m")).toStrictEqual({
      severity: "error",
      code: "c",
      file: "SKILL.md",
      message: "m",
    });
    expect(warning("SKILL.md", "c", "line 1", "m", { hint: "h" })).toEqual({
      severity: "warning",
      code: "c",
      file: "SKILL.md",
      message: "m",
      location: "line 1",
      hint: "h",
    });
  });
});
