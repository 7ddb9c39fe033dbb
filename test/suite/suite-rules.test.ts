import { describe, expect, test } from "vitest";
import { EvalsFile } from "../../src/contracts/evals.js";
import { evalsFileRules, triggersFileRules } from "../../src/suite/suite-rules.js";

function rules(data: unknown, skillName = "tidy") {
  return evalsFileRules(EvalsFile.parse(data), "evals.json", skillName);
}

describe("evalsFileRules", () => {
  test("a skill_name that differs from the skill is a warning quoting both", () => {
    expect(rules({ skill_name: "tidy-up", evals: [{ id: 1, prompt: "p" }] })).toEqual([
      {
        severity: "warning",
        code: "skill-name-mismatch",
        file: "evals.json",
        location: "skill_name",
        message: 'says "tidy-up" but the skill is named "tidy"',
        hint: "skill_name is documentation only; make it match the SKILL.md name or remove it",
      },
    ]);
  });

  test("no evals is a warning", () => {
    expect(rules({ evals: [] })).toEqual([
      { severity: "warning", code: "no-evals", file: "evals.json", location: "evals", message: "is empty" },
    ]);
  });

  test("a matching skill_name and plain ids give no finding", () => {
    expect(
      rules({
        skill_name: "tidy",
        evals: [
          { id: "A1", prompt: "p" },
          { id: 2, prompt: "p" },
        ],
      }),
    ).toEqual([]);
  });

  test.each([".", "..", " a", "a ", "a/b", "a\\b", "a:b", "a\u0001b"])(
    "the id %j cannot name a folder",
    (id) => {
      expect(
        rules({
          evals: [
            { id: "ok", prompt: "p" },
            { id, prompt: "p" },
          ],
        }),
      ).toEqual([
        {
          severity: "error",
          code: "eval-id",
          file: "evals.json",
          location: "evals[1].id",
          message: `${JSON.stringify(id)} cannot be used as a folder name`,
          hint: "use letters, digits, '-' or '_' (for example \"A1\" or \"empty-input\")",
        },
      ]);
    },
  );

  test("a check path outside the workspace is an error at the path", () => {
    const found = rules({
      evals: [{ id: 1, prompt: "p", checks: [{ type: "file_exists", path: "../out.txt" }] }],
    });
    expect(found).toEqual([
      {
        severity: "error",
        code: "check-path",
        file: "evals.json",
        location: "evals[0].checks[0].path",
        message: "\"../out.txt\" must stay inside the workspace (it climbs out with '..')",
        hint: "check paths are relative to the run's workspace",
      },
    ]);
  });

  test("a pattern that does not compile is an error at the pattern", () => {
    const found = rules({
      evals: [{ id: 1, prompt: "p", checks: [{ type: "file_contains", path: "a.txt", pattern: "(" }] }],
    });
    expect(found).toEqual([
      {
        severity: "error",
        code: "check-regex",
        file: "evals.json",
        location: "evals[0].checks[0].pattern",
        message: "not a valid regular expression: Invalid regular expression: /(/: Unterminated group",
        hint: "write a JavaScript regular expression source; in JSON a backslash is written \\\\",
      },
    ]);
  });

  test("repeated flags are an error at the flags are an error at the flags", () => {
    const found = rules({
      evals: [
        { id: 1, prompt: "p", checks: [{ type: "file_contains", path: "a.txt", pattern: "a", flags: "gg" }] },
      ],
    });
    expect(found.map((f) => [f.code, f.location, f.message])).toEqual([
      [
        "check-regex",
        "evals[0].checks[0].flags",
        "not a valid regular expression: Invalid flags supplied to RegExp constructor 'gg'",
      ],
    ]);
  });
});

describe("triggersFileRules", () => {
  const queries = (positive: number, negative: number) => [
    ...Array.from({ length: positive }, (_, i) => ({ query: `yes ${i}`, should_trigger: true })),
    ...Array.from({ length: negative }, (_, i) => ({ query: `no ${i}`, should_trigger: false })),
  ];

  test("three on each side is enough", () => {
    expect(triggersFileRules(queries(3, 3), "triggers.json")).toEqual([]);
  });

  test.each([
    [2, 3],
    [3, 2],
  ])("%i true and %i false is a warning", (positive, negative) => {
    expect(triggersFileRules(queries(positive, negative), "triggers.json")).toEqual([
      {
        severity: "warning",
        code: "few-trigger-queries",
        file: "triggers.json",
        message: `${positive} should_trigger true and ${negative} false; with fewer than 3 on either side precision and recall mean little`,
        hint: "add realistic queries on both sides, including near-misses that should not trigger",
      },
    ]);
  });
});
