import { describe, expect, it } from "vitest";
import { formatFinding } from "../src/findings.js";

describe("formatFinding", () => {
  it("puts the place after the file, and the fix on its own line", () => {
    expect(
      formatFinding({
        severity: "error",
        code: "empty",
        file: "evals.json",
        location: "evals[2].prompt",
        message: "is empty",
        hint: "write one",
      }),
    ).toBe("error: evals.json: evals[2].prompt: is empty\n    fix: write one");
  });

  it("leaves out the place and the fix when there are none", () => {
    expect(formatFinding({ severity: "warning", code: "long", file: "SKILL.md", message: "is long" })).toBe(
      "warning: SKILL.md: is long",
    );
  });
});
