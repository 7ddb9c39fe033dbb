import { describe, expect, test } from "vitest";
import { findJsonSyntaxError } from "../../src/suite/json-syntax.js";

const aValue = "a value (object, array, string, number, true, false or null)";

describe("findJsonSyntaxError", () => {
  test.each([
    ["{ }"],
    ['{"a" : 1}'],
    ["[ ]"],
    ["[1 ]"],
    ["[1, 2]"],
    ["9"],
    ["[1.25, 1e25, 1E5, -0.5E+3]"],
    ['"\\u0041"'],
    ['{"a": "\\"\\\\\\/\\b\\f\\n\\r\\t"}'],
  ])("accepts %j", (text) => {
    expect(findJsonSyntaxError(text)).toBeUndefined();
  });

  test.each([
    ["+1", 0, `unexpected "+"; expected ${aValue}`],
    [".5", 0, `unexpected "."; expected ${aValue}`],
    ["[", 1, `unexpected end of file; expected ${aValue}`],
    ['{"a":', 5, `unexpected end of file; expected ${aValue}`],
    ["'a'", 0, "strings must use double quotes"],
    ['{"a" 1}', 5, `unexpected "1"; expected ':' after the property name`],
    ['{"a" ', 5, "unexpected end of file; expected ':' after the property name"],
    ["{ x }", 2, `unexpected "x"; expected a property name in double quotes`],
    ['{"a": 1, }', 9, "trailing comma before '}'"],
    ["[1,]", 3, "trailing comma before ']'"],
    ["[1, ]", 4, "trailing comma before ']'"],
    ["[1 2]", 3, `unexpected "2"; expected ',' or ']' after the array element`],
    ['{"a": 1 "b": 2}', 8, `unexpected "\\""; expected ',' or '}' after the property value`],
    ['{"a": "abc', 6, "unterminated string"],
    ['"a\nb"', 2, "control character inside a string; write a line break as \\n and a tab as \\t"],
    ['"a\tb"', 2, "control character inside a string; write a line break as \\n and a tab as \\t"],
    ['"\\', 1, "invalid escape sequence \\"],
    ['"\\x"', 1, "invalid escape sequence \\x"],
    ['"\\x0041"', 1, "invalid escape sequence \\x"],
    ['"\\u12"', 1, "invalid escape sequence \\u"],
    ['"\\u12G4"', 1, "invalid escape sequence \\u"],
    ["-x", 0, "invalid number"],
    ["01", 1, "invalid number"],
    ["1.", 1, "invalid number"],
    ["1e", 1, "invalid number"],
    ["[] x", 3, "unexpected text after the end of the JSON value"],
    [" \n\t ", 0, "the file is empty; expected a JSON value"],
  ])("reports %j at offset %i with the exact message", (text, offset, message) => {
    expect(findJsonSyntaxError(text)).toEqual({ offset, message });
  });
});
