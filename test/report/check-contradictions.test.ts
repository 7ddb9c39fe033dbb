import { describe, expect, it } from "vitest";
import type { GradedExpectation } from "../../src/contracts/grading.js";
import { findContradictions, missingFileOf, namesFile } from "../../src/report/check-contradictions.js";

const judge = (text: string, passed = true): GradedExpectation => ({
  text,
  passed,
  evidence: "the judge read it",
  source: "judge",
});
const check = (
  check_type: GradedExpectation["check_type"],
  text: string,
  evidence: string,
  passed = false,
): GradedExpectation => ({ text, passed, evidence, source: "check", ...(check_type ? { check_type } : {}) });

describe("missingFileOf", () => {
  it("reads the missing file from a failed file check's evidence, whatever the check's own text", () => {
    expect(missingFileOf(check("file_exists", "invoice.txt exists", "invoice.txt does not exist"))).toBe(
      "invoice.txt",
    );
    expect(
      missingFileOf(check("file_contains", "the invoice has its number", "out/invoice.txt does not exist")),
    ).toBe("out/invoice.txt");
    expect(
      missingFileOf(check("file_unchanged", "a is kept", "a b.txt is a symbolic link to a missing target")),
    ).toBe("a b.txt");
  });

  it("is undefined for passed checks, other failures, other check types and judges", () => {
    expect(
      missingFileOf(check("file_exists", "x exists", "x exists (a file of 3 bytes)", true)),
    ).toBeUndefined();
    expect(
      missingFileOf(check("file_contains", "x matches /a/", "No match for /a/ in x (1 line); it begins:\nb")),
    ).toBeUndefined();
    expect(missingFileOf(check("command", "ls x", "x does not exist"))).toBeUndefined();
    expect(missingFileOf(check(undefined, "x exists", "x does not exist"))).toBeUndefined();
    expect(missingFileOf({ ...judge("x exists", false), evidence: "x does not exist" })).toBeUndefined();
    expect(
      missingFileOf({ ...judge("x exists", false), check_type: "file_exists", evidence: "x does not exist" }),
    ).toBeUndefined();
    expect(missingFileOf(check("file_exists", "x is gone", "x does not exist", true))).toBeUndefined();
  });
});

describe("namesFile", () => {
  it("finds the file as a word, with or without folders, at a sentence's end, in any case", () => {
    expect(namesFile("invoice.txt contains INV-1042", "invoice.txt")).toBe(true);
    expect(namesFile("The number is in invoice.txt.", "invoice.txt")).toBe(true);
    expect(namesFile("`Invoice.TXT` holds the total", "invoice.txt")).toBe(true);
    expect(namesFile("outputs/invoice.txt has a total", "invoice.txt")).toBe(true);
    expect(namesFile("./out/invoice.txt has a total", "out/invoice.txt")).toBe(true);
    expect(namesFile("invoice.txt has a total", "out/invoice.txt")).toBe(true);
    expect(namesFile("../invoice.txt has a total", "invoice.txt")).toBe(true);
  });

  it("does not take a longer name or another folder's file for it", () => {
    expect(namesFile("myinvoice.txt contains INV-1042", "invoice.txt")).toBe(false);
    expect(namesFile("invoice.txt.bak contains INV-1042", "invoice.txt")).toBe(false);
    expect(namesFile("invoice.txts are listed", "invoice.txt")).toBe(false);
    expect(namesFile("old/invoice.txt is kept", "new/invoice.txt")).toBe(false);
    expect(namesFile("the invoice contains INV-1042", "invoice.txt")).toBe(false);
  });
});

describe("findContradictions", () => {
  it("marks a judge PASS about a file a check showed missing, with the check's evidence", () => {
    const expectations = [
      judge("invoice.txt contains INV-1042"),
      judge("The reply is polite"),
      judge("invoice.txt lists three items", false),
      check("file_exists", "invoice.txt exists", "invoice.txt does not exist\n"),
    ];
    expect(findContradictions(expectations)).toEqual([
      { expectation: 0, check: 3, file: "invoice.txt", reason: "invoice.txt does not exist" },
    ]);
  });

  it("counts an expectation with no source (skill-creator's grader) as the judge's", () => {
    const legacy: GradedExpectation = { text: "report.md has a summary", passed: true, evidence: "yes" };
    expect(
      findContradictions([
        legacy,
        check("file_contains", "report.md matches /x/", "report.md does not exist"),
      ]),
    ).toEqual([{ expectation: 0, check: 1, file: "report.md", reason: "report.md does not exist" }]);
  });

  it("finds none when the file exists or no check failed on a missing file", () => {
    expect(
      findContradictions([
        judge("invoice.txt contains INV-1042"),
        check("file_exists", "invoice.txt exists", "invoice.txt exists (a file of 9 bytes)", true),
      ]),
    ).toEqual([]);
    expect(
      findContradictions([
        judge("invoice.txt contains INV-1042"),
        check("file_contains", "invoice.txt matches /INV/", "No match for /INV/ in invoice.txt (1 line)"),
      ]),
    ).toEqual([]);
    expect(findContradictions([judge("invoice.txt contains INV-1042")])).toEqual([]);
  });
});

describe("the edges of a missing file and of a name", () => {
  it("reads evidence with blank lines around it, and only a sentence that ends there", () => {
    expect(missingFileOf(check("file_exists", "x exists", "\n  out/x.txt does not exist\n"))).toBe(
      "out/x.txt",
    );
    expect(missingFileOf(check("file_exists", "x exists", "x.txt does not exist yet"))).toBeUndefined();
    expect(missingFileOf(check("file_exists", "x exists", "does not exist"))).toBeUndefined();
  });

  it("reads folders written with backslashes or ./ as the same path", () => {
    expect(namesFile("out\\invoice.txt has a total", "out/invoice.txt")).toBe(true);
    expect(namesFile("out/invoice.txt has a total", "out\\invoice.txt")).toBe(true);
    expect(namesFile("././out/invoice.txt has a total", "out/invoice.txt")).toBe(true);
    expect(namesFile("x/a/b.txt has a total", "./a/b.txt")).toBe(true);
    expect(namesFile("x/a/b.txt has a total", "././a/b.txt")).toBe(true);
    expect(namesFile("out/invoice.txt has a total", "Out/Invoice.TXT")).toBe(true);
    expect(namesFile("a/./out/invoice.txt has a total", "b/out/invoice.txt")).toBe(false);
  });

  it("finds a name at the end of the text, after a longer one, and not before a dash", () => {
    expect(namesFile("the total is in invoice.txt", "invoice.txt")).toBe(true);
    expect(namesFile("myinvoice.txt differs from invoice.txt here", "invoice.txt")).toBe(true);
    expect(namesFile("invoice.txt-old is kept", "invoice.txt")).toBe(false);
    expect(namesFile("invoice.txt.", "invoice.txt")).toBe(true);
  });

  it("names no file for a path that ends in a folder", () => {
    expect(namesFile("out/ is empty", "out/")).toBe(false);
  });

  it("gives each judge PASS the first missing file it names, and leaves checks that passed alone", () => {
    const expectations = [
      check("file_exists", "a.txt exists", "a.txt does not exist"),
      check("file_exists", "b.txt exists", "b.txt does not exist"),
      judge("b.txt is long"),
      check("command", "b.txt is listed", "ok", true),
      judge("a.txt and b.txt agree"),
    ];
    expect(findContradictions(expectations)).toEqual([
      { expectation: 2, check: 1, file: "b.txt", reason: "b.txt does not exist" },
      { expectation: 4, check: 0, file: "a.txt", reason: "a.txt does not exist" },
    ]);
  });
});
