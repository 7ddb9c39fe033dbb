import { describe, expect, test } from "vitest";
import { editDistance, likelyMeant } from "../../src/suite/key-typos.js";

describe("editDistance", () => {
  test.each([
    ["", "", 0],
    ["", "abc", 3],
    ["abc", "", 3],
    ["same", "same", 0],
    ["a", "ab", 1],
    ["kitten", "sitting", 3],
    ["flaw", "lawn", 2],
    ["ab", "ba", 1],
    ["abc", "acb", 1],
    ["abcd", "badc", 2],
    ["abcdef", "abdcef", 1],
    ["ca", "abc", 3],
    ["ab", "cd", 2],
    ["aab", "aba", 1],
    ["xab", "xba", 1],
    ["abxy", "baxy", 1],
    ["xyab", "xyba", 1],
  ])("from %j to %j is %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });
});

describe("likelyMeant", () => {
  test("finds a known key typed in another case", () => {
    expect(likelyMeant("Prompt", ["id", "prompt"])).toBe("prompt");
  });

  test("prefers the key typed in another case over a later plural of it", () => {
    expect(likelyMeant("ID", ["id", "ids"])).toBe("id");
  });

  test("finds the plural of a short key, which no edit allowance would reach", () => {
    expect(likelyMeant("id", ["ids"])).toBe("ids");
  });

  test("finds the singular of a short key typed as a plural", () => {
    expect(likelyMeant("IDs", ["id"])).toBe("id");
  });

  test("allows two edits on a key of six letters or more", () => {
    expect(likelyMeant("prmt", ["prompt"])).toBe("prompt");
    expect(likelyMeant("prmpt", ["prompt"])).toBe("prompt");
  });

  test("allows one edit on a key of four or five letters, and not two", () => {
    expect(likelyMeant("nme", ["name"])).toBe("name");
    expect(likelyMeant("tipe", ["types"])).toBeUndefined();
    expect(likelyMeant("note", ["name"])).toBeUndefined();
  });

  test("allows no edit on a key of three letters or fewer", () => {
    expect(likelyMeant("ix", ["id"])).toBeUndefined();
    expect(likelyMeant("enx", ["env"])).toBeUndefined();
  });

  test("picks the closest of several keys, whatever their order", () => {
    expect(likelyMeant("max_outptu_file", ["max_output_file", "max_output_files"])).toBe("max_output_file");
    expect(likelyMeant("max_outptu_file", ["max_output_files", "max_output_file"])).toBe("max_output_file");
  });

  test("picks the first of two equally close keys", () => {
    expect(likelyMeant("max_output_filex", ["max_output_file", "max_output_files"])).toBe("max_output_file");
    expect(likelyMeant("max_output_filex", ["max_output_files", "max_output_file"])).toBe("max_output_files");
  });

  test("finds nothing when no key is close", () => {
    expect(likelyMeant("colour", ["prompt", "files"])).toBeUndefined();
    expect(likelyMeant("prompt", [])).toBeUndefined();
  });
});
