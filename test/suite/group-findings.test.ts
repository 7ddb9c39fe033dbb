import { describe, expect, test } from "vitest";
import type { Finding } from "../../src/findings.js";
import { groupFindings, ranges } from "../../src/suite/group-findings.js";

function finding(location: string | undefined, message = "expected string"): Finding {
  return {
    severity: "error",
    code: "json-schema",
    file: "evals.json",
    ...(location === undefined ? {} : { location }),
    message,
  };
}

describe("ranges", () => {
  test("runs of consecutive indices become ranges, in order, without repeats", () => {
    expect(ranges([9, 10, 3, 0, 1, 2, 7, 2])).toBe("0..3, 7, 9..10");
  });

  test("unsorted indices are sorted by value", () => {
    expect(ranges([3, 1, 2])).toBe("1..3");
    expect(ranges([10, 9])).toBe("9..10");
  });

  test("one index and none", () => {
    expect(ranges([4])).toBe("4");
    expect(ranges([])).toBe("");
  });
});

describe("groupFindings", () => {
  test("the same error over list entries becomes one finding at the first one's place", () => {
    const grouped = groupFindings([
      finding("evals[0].assertions[2]"),
      finding(undefined),
      finding("evals[0].assertions[0]"),
      finding("evals[0].assertions[1]"),
      finding("evals[0].assertions[5]"),
      finding("evals[0].prompt", "required"),
    ]);
    expect(grouped).toEqual([
      finding("evals[0].assertions[0..2, 5]"),
      finding(undefined),
      finding("evals[0].prompt", "required"),
    ]);
  });

  test("only the last index is grouped, and other places stay apart", () => {
    const grouped = groupFindings([
      finding("evals[0].tags[1]"),
      finding("evals[1].tags[1]"),
      finding("evals.tags[0][1]"),
    ]);
    expect(grouped).toEqual([
      finding("evals[0].tags[1]"),
      finding("evals[1].tags[1]"),
      finding("evals.tags[0][1]"),
    ]);
  });

  test("findings whose indices sit at different places are not merged", () => {
    const grouped = groupFindings([finding("x[0].y"), finding("x.y[1]")]);
    expect(grouped).toEqual([finding("x[0].y"), finding("x.y[1]")]);
  });

  test("a different message keeps a finding apart", () => {
    const grouped = groupFindings([finding("a[0]"), finding("a[1]", "other"), finding("a[2]")]);
    expect(grouped).toEqual([finding("a[0, 2]"), finding("a[1]", "other")]);
  });
});
