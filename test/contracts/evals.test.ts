import { describe, expect, it } from "vitest";
import { EvalMetadata, EvalsFile, TriggersFile } from "../../src/contracts/index.js";
import { issueMessages, issuePaths } from "./issues.js";

describe("evals.json", () => {
  it("turns the `assertions` alias into `expectations`", () => {
    const parsed = EvalsFile.parse({ evals: [{ id: 1, prompt: "p", assertions: ["a", "b"] }] });
    expect(parsed.evals[0]?.expectations).toEqual(["a", "b"]);
    expect(parsed.evals[0]).not.toHaveProperty("assertions");
  });

  it("prefers `expectations` when both are given", () => {
    const parsed = EvalsFile.parse({
      evals: [{ id: 1, prompt: "p", expectations: ["e"], assertions: ["a"] }],
    });
    expect(parsed.evals[0]?.expectations).toEqual(["e"]);
  });

  it("accepts an eval whose checks stand in for expectations", () => {
    const parsed = EvalsFile.parse({
      evals: [{ id: "mk", prompt: "p", checks: [{ type: "file_exists", path: "out.txt" }] }],
    });
    expect(parsed.evals[0]?.expectations).toEqual([]);
    expect(parsed.evals[0]?.checks).toHaveLength(1);
  });

  it("accepts an eval with neither expectations nor checks (the suite rules warn)", () => {
    expect(issuePaths(EvalsFile, { evals: [{ id: 1, prompt: "p" }] })).toEqual([]);
  });

  it("fails on an unknown check type", () => {
    const value = { evals: [{ id: 1, prompt: "p", checks: [{ type: "file_smells", path: "x" }] }] };
    // A check entry may also be a plain sentence, so zod reports the entry; the suite's messages name `.type`.
    expect(issuePaths(EvalsFile, value)).toEqual(["evals[0].checks[0]"]);
  });

  it('fails on duplicate ids, 1 and "1" included', () => {
    const value = {
      evals: [
        { id: 1, prompt: "p", expectations: [] },
        { id: 2, prompt: "p", expectations: [] },
        { id: "1", prompt: "p", expectations: [] },
      ],
    };
    expect(issuePaths(EvalsFile, value)).toEqual(["evals[2].id"]);
    expect(issueMessages(EvalsFile, value)[0]).toContain("evals[0]");
  });

  it("takes `env` as a list of variable names, and fails at each name that is none", () => {
    const evals = [{ id: 1, prompt: "p" }];
    expect(EvalsFile.parse({ env: ["GITHUB_TOKEN", "_A1"], evals }).env).toEqual(["GITHUB_TOKEN", "_A1"]);
    expect(issuePaths(EvalsFile, { env: "GITHUB_TOKEN", evals })).toEqual(["env"]);
    expect(issuePaths(EvalsFile, { env: ["A", "B=1", "9Z", "a b"], evals })).toEqual([
      "env[1]",
      "env[2]",
      "env[3]",
    ]);
  });

  it("says how to fix a duplicate id, and a number id a string id's position clashes with", () => {
    const issuesOf = (evals: unknown[]) => {
      const result = EvalsFile.safeParse({ evals });
      return result.success
        ? []
        : result.error.issues.map((issue) => ({
            path: issue.path,
            message: issue.message,
            hint: (issue as { params?: { hint?: string } }).params?.hint,
          }));
    };
    expect(
      issuesOf([
        { id: 1, prompt: "p" },
        { id: 1, prompt: "p" },
      ]),
    ).toEqual([
      {
        path: ["evals", 1, "id"],
        message: "duplicate id 1 (first used by evals[0])",
        hint: "give every eval its own id",
      },
    ]);
    expect(
      issuesOf([
        { id: "first", prompt: "p" },
        { id: 1, prompt: "p" },
      ]),
    ).toEqual([
      {
        path: ["evals", 1, "id"],
        message:
          "1 becomes eval_id 1 in skill-creator's files, as does evals[0] (a number id is kept, a string id becomes its position)",
        hint: "change the number id 1, or use string ids (or number ids) throughout",
      },
    ]);
  });

  it("takes sizes as a size, and refuses at the field a size it cannot read", () => {
    const evals = [{ id: 1, prompt: "p" }];
    expect(EvalsFile.parse({ max_output: "200MB", max_output_file: "1 GiB", evals })).toMatchObject({
      max_output: "200MB",
      max_output_file: "1 GiB",
    });
    const value = { max_output: "lots", max_output_file: "5 parsecs", evals };
    expect(issuePaths(EvalsFile, value)).toEqual(["max_output", "max_output_file"]);
    expect(issueMessages(EvalsFile, value)).toEqual([
      'expected a size such as "200MB", "50MB" or "1GB"',
      'expected a size such as "200MB", "50MB" or "1GB"',
    ]);
  });

  it("keeps a check's sentences as expectations and its structured checks as checks", () => {
    const check = { type: "file_exists", path: "out.txt" };
    const parsed = EvalsFile.parse({
      evals: [{ id: 1, prompt: "p", expectations: ["e"], checks: ["The table has a header", check] }],
    });
    expect(parsed.evals[0]?.expectations).toEqual(["e", "The table has a header"]);
    expect(parsed.evals[0]?.checks).toEqual([check]);
    expect(EvalsFile.parse({ evals: [{ id: 1, prompt: "p" }] }).evals[0]).toMatchObject({
      expectations: [],
      checks: [],
      files: [],
    });
  });

  it("fails at the place of a missing prompt", () => {
    expect(issuePaths(EvalsFile, { evals: [{ id: 1, expectations: [] }] })).toEqual(["evals[0].prompt"]);
  });
});

describe("triggers.json and eval_metadata.json", () => {
  it("parses skill-creator's eval_set.json", () => {
    const parsed = TriggersFile.parse([
      { query: "fill this pdf form", should_trigger: true },
      { query: "what is the weather", should_trigger: false },
    ]);
    expect(parsed).toHaveLength(2);
  });

  it("fails at the query that lacks should_trigger", () => {
    expect(issuePaths(TriggersFile, [{ query: "q", should_trigger: true }, { query: "q2" }])).toEqual([
      "[1].should_trigger",
    ]);
  });

  it("parses eval_metadata.json", () => {
    const value = { eval_id: 3, eval_name: "ocean", prompt: "p", assertions: ["a"] };
    expect(EvalMetadata.parse(value)).toEqual(value);
  });
});
