import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/agents/events.js";
import type { Check } from "../../../src/contracts/checks.js";
import { GradedExpectation } from "../../../src/contracts/grading.js";
import { describeCheck, gradeChecks } from "../../../src/grade/checks/index.js";
import { contextFor, makeWorkspace, removeWorkspace, toolUse } from "./workspace.js";

let dir: string;

beforeAll(async () => {
  dir = await makeWorkspace({
    "RELEASE_NOTES.md": "## Fixes\n- crash\n",
    "evals/files/commits.txt": "fix: crash\n",
  });
});
afterAll(async () => {
  await removeWorkspace(dir);
});

describe("describeCheck", () => {
  const cases: [Check, string][] = [
    [{ type: "file_exists", path: "RELEASE_NOTES.md" }, "RELEASE_NOTES.md exists"],
    [
      { type: "file_contains", path: "RELEASE_NOTES.md", pattern: "^## Fixes$", flags: "m" },
      "RELEASE_NOTES.md matches /^## Fixes$/m",
    ],
    [{ type: "file_contains", path: "RELEASE_NOTES.md", pattern: "x" }, "RELEASE_NOTES.md matches /x/"],
    [
      { type: "file_contains", path: "RELEASE_NOTES.md", pattern: "bump", flags: "i", negate: true },
      "RELEASE_NOTES.md does not match /bump/i",
    ],
    [
      { type: "file_unchanged", path: "evals/files/commits.txt" },
      "evals/files/commits.txt is left unchanged",
    ],
    [{ type: "command", run: "npm test" }, "`npm test` exits with 0"],
    [{ type: "command", run: "npm run lint", expect_exit: 1 }, "`npm run lint` exits with 1"],
    [{ type: "skill_invoked" }, 'the skill "release-notes" is invoked'],
    [{ type: "skill_invoked", skill: "x", expected: false }, 'the skill "x" is not invoked'],
    [{ type: "skill_invoked", expected: true }, 'the skill "release-notes" is invoked'],
    [{ type: "tool_called", name: "Read" }, "the Read tool is called at least once"],
    [{ type: "tool_called", name: "Read", min: 2 }, "the Read tool is called at least 2 times"],
    [{ type: "tool_called", name: "Read", max: 3 }, "the Read tool is called at most 3 times"],
    [{ type: "tool_called", name: "Read", max: 1 }, "the Read tool is called at most once"],
    [{ type: "tool_called", name: "Read", min: 1, max: 3 }, "the Read tool is called between 1 and 3 times"],
    [{ type: "tool_called", name: "Read", min: 2, max: 2 }, "the Read tool is called exactly 2 times"],
    [{ type: "tool_called", name: "Read", max: 0 }, "the Read tool is not called"],
    [{ type: "tool_called", name: "Read", min: 0 }, "the Read tool is called any number of times"],
  ];
  for (const [check, text] of cases) {
    it(`says ${text}`, () => {
      expect(describeCheck(check, "release-notes")).toBe(text);
    });
  }

  it("uses the check's own description when given", () => {
    const check: Check = { type: "file_exists", path: "a.md", description: "the notes are written" };
    expect(describeCheck(check, "release-notes")).toBe("the notes are written");
    expect(describeCheck({ type: "file_exists", path: "a.md", description: "  " }, "release-notes")).toBe(
      "a.md exists",
    );
  });

  it("refuses a check of a type it does not know, naming the type", () => {
    expect(() =>
      describeCheck({ type: "file_gone", path: "a.md" } as unknown as Check, "release-notes"),
    ).toThrow('unknown check type "file_gone"');
  });
});

describe("gradeChecks", () => {
  it("grades every check, in order, into valid grading.json expectations", async () => {
    const checks: Check[] = [
      { type: "file_exists", path: "RELEASE_NOTES.md" },
      {
        type: "file_contains",
        path: "RELEASE_NOTES.md",
        pattern: "^## Fixes$",
        flags: "m",
        description: "has Fixes",
      },
      { type: "file_unchanged", path: "evals/files/commits.txt" },
      { type: "command", run: "exit 2" },
      { type: "skill_invoked" },
      { type: "tool_called", name: "Read", min: 2 },
    ];
    const events: AgentEvent[] = [
      toolUse("Skill", { skill: "release-notes" }),
      toolUse("Read", { file_path: "a" }),
    ];
    const graded = await gradeChecks(checks, contextFor(dir, { events }));
    expect(graded.map((g) => [g.text, g.passed, g.check_type])).toEqual([
      ["RELEASE_NOTES.md exists", true, "file_exists"],
      ["has Fixes", true, "file_contains"],
      ["evals/files/commits.txt is left unchanged", true, "file_unchanged"],
      ["`exit 2` exits with 0", false, "command"],
      ['the skill "release-notes" is invoked', true, "skill_invoked"],
      ["the Read tool is called at least 2 times", false, "tool_called"],
    ]);
    for (const expectation of graded) {
      expect(GradedExpectation.parse(expectation)).toEqual(expectation);
      expect(expectation.source).toBe("check");
      expect(expectation.evidence).not.toBe("");
    }
  });

  it("returns nothing for no checks", async () => {
    expect(await gradeChecks([], contextFor(dir))).toEqual([]);
  });

  it("turns a check that throws into a failed expectation, and goes on", async () => {
    const broken: AgentEvent = {
      kind: "tool_use",
      id: "toolu_bad",
      name: "Skill",
      input: null as unknown as Record<string, unknown>,
    };
    const unknown = { type: "file_size", path: "a.md" } as unknown as Check;
    const graded = await gradeChecks(
      [{ type: "skill_invoked" }, unknown, { type: "file_exists", path: "RELEASE_NOTES.md" }],
      contextFor(dir, { events: [broken] }),
    );
    expect(graded).toHaveLength(3);
    expect(graded[0]).toMatchObject({ passed: false, source: "check", check_type: "skill_invoked" });
    expect(graded[0]?.evidence).toMatch(/^The check could not be graded: /);
    expect(graded[1]).toEqual({
      text: 'a check of type "file_size"',
      passed: false,
      source: "check",
      evidence: 'The check could not be graded: unknown check type "file_size"',
    });
    expect(graded[1]).not.toHaveProperty("check_type");
    expect(graded[2]?.passed).toBe(true);
  });
});
