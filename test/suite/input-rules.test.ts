import { describe, expect, test } from "vitest";
import { evalsInputRules, triggersInputRules } from "../../src/suite/input-rules.js";

const graded = { prompt: "p", expectations: ["e"] };

describe("evalsInputRules", () => {
  test("a misspelled top-level field is an error naming the evals file", () => {
    const { findings, misspelled } = evalsInputRules({ evals: [], skil_name: "x" }, "evals.json");
    expect(findings).toEqual([
      {
        severity: "error",
        code: "misspelled-field",
        file: "evals.json",
        location: "skil_name",
        message: "`skil_name` is not a field of the evals file; did you mean `skill_name`?",
        hint: "rename `skil_name` to `skill_name`",
      },
    ]);
    expect([...misspelled]).toEqual(["skill_name"]);
  });

  test("a sentence under `checks` is a warning at its place", () => {
    const { findings } = evalsInputRules(
      { evals: [{ prompt: "p", checks: ["the file exists"] }] },
      "evals.json",
    );
    expect(findings).toEqual([
      {
        severity: "warning",
        code: "checks-as-expectations",
        file: "evals.json",
        location: "evals[0].checks[0]",
        message: "a plain statement under `checks`; read as an expectation, graded by the judge",
        hint: 'move plain statements to `expectations`; `checks` holds typed checks such as {"type": "file_exists", "path": "out.txt"}',
      },
    ]);
  });

  test("extra fields are one warning listing each with its first three places", () => {
    const evals = [1, 2, 3, 4].map((id) => ({ id, ...graded, note: "n" }));
    evals[0] = { ...evals[0], comment: "c" } as (typeof evals)[0];
    const { findings } = evalsInputRules({ evals }, "evals.json");
    expect(findings).toEqual([
      {
        severity: "warning",
        code: "unknown-fields",
        file: "evals.json",
        message:
          "fields skillgym does not read, ignored: `note` (evals[0], evals[1], evals[2] and 1 more), `comment` (evals[0])",
        hint: "fine if they are notes for people; otherwise check the field names against the evals.json format",
      },
    ]);
  });

  test("three places are listed in full", () => {
    const evals = [1, 2, 3].map((id) => ({ id, ...graded, note: "n" }));
    const { findings } = evalsInputRules({ evals }, "evals.json");
    expect(findings.map((f) => f.message)).toEqual([
      "fields skillgym does not read, ignored: `note` (evals[0], evals[1], evals[2])",
    ]);
  });

  test.each([
    ["null", null],
    ["an array", [{ note: "n" }]],
    ["a string", "text"],
    ["an object whose evals is not a list", { evals: { note: "n" } }],
    ["evals that are not objects", { evals: [null, "text", ["x"], 3] }],
  ])("%s gives no finding", (_what, data) => {
    expect(evalsInputRules(data, "evals.json")).toEqual({ findings: [], misspelled: new Set() });
  });
});

describe("triggersInputRules", () => {
  test("a misspelled field of a query names its index", () => {
    const { findings } = triggersInputRules([{ query: "q", should_trigers: true }], "triggers.json");
    expect(findings).toEqual([
      {
        severity: "error",
        code: "misspelled-field",
        file: "triggers.json",
        location: "[0].should_trigers",
        message: "`should_trigers` is not a field of a trigger query; did you mean `should_trigger`?",
        hint: "rename `should_trigers` to `should_trigger`",
      },
    ]);
  });

  test("entries that are not objects give no finding", () => {
    expect(triggersInputRules([null, "q", ["x"]], "triggers.json")).toEqual({
      findings: [],
      misspelled: new Set(),
    });
  });
});
