import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/agents/events.js";
import type { Check } from "../../../src/contracts/checks.js";
import type { CheckContext } from "../../../src/grade/checks/context.js";
import { gradeChecks } from "../../../src/grade/checks/grade-checks.js";
import { contextFor, toolUse } from "./workspace.js";

// Event checks never touch the workspace; a folder that does not exist proves it.
const nowhere = "/nonexistent/skillgym-workspace";

const session: AgentEvent[] = [
  {
    kind: "init",
    model: "claude-sonnet",
    tools: ["Read", "Bash", "Skill"],
    skills: ["release-notes", "pdf"],
  },
  { kind: "text", text: "Let me look." },
  toolUse("Bash", { command: "git log --oneline" }),
  { kind: "tool_result", toolUseId: "toolu_x", isError: false, content: "abc fix" },
  toolUse("Read", { file_path: "/home/u/.claude/skills/pdf/SKILL.md" }),
  toolUse("Skill", { skill: "release-notes" }),
  toolUse("Read", { file_path: "/work/evals/files/commits.txt" }),
  toolUse("Read", { file_path: "/work/CHANGELOG.md" }),
  toolUse("Write", { file_path: "/work/RELEASE_NOTES.md", content: "## Fixes" }),
  { kind: "result", isError: false, subtype: "success", text: "Done." },
];

async function gradeOne(check: Check, extra: Partial<CheckContext> = {}) {
  const [graded] = await gradeChecks([check], contextFor(nowhere, { events: session, ...extra }));
  if (!graded) throw new Error("no expectation graded");
  return graded;
}

describe("skill_invoked", () => {
  it("passes for the skill under test by default, naming the skills loaded in order", async () => {
    const graded = await gradeOne({ type: "skill_invoked" });
    expect(graded).toMatchObject({
      passed: true,
      source: "check",
      check_type: "skill_invoked",
      evidence: '"release-notes" was invoked. Skills loaded, in order: "pdf", "release-notes"',
    });
  });

  it("fails when the skill was not loaded", async () => {
    const graded = await gradeOne(
      { type: "skill_invoked" },
      { events: session.filter((e) => e.kind !== "tool_use" || e.name !== "Skill") },
    );
    expect(graded).toMatchObject({
      passed: false,
      evidence: '"release-notes" was not invoked. Skills loaded, in order: "pdf"',
    });
    const none = await gradeOne({ type: "skill_invoked" }, { events: [] });
    expect(none).toMatchObject({
      passed: false,
      evidence: '"release-notes" was not invoked. No skill was loaded',
    });
  });

  it("checks another skill, by a read of its SKILL.md or a slash command", async () => {
    expect((await gradeOne({ type: "skill_invoked", skill: "pdf" })).passed).toBe(true);
    const slash = await gradeOne(
      { type: "skill_invoked", skill: "docx" },
      { events: [toolUse("Skill", { command: "/docx" })] },
    );
    expect(slash.passed).toBe(true);
    expect((await gradeOne({ type: "skill_invoked", skill: "xlsx" })).passed).toBe(false);
  });

  it("with expected: false, passes only when the skill was not loaded", async () => {
    const absent = await gradeOne({ type: "skill_invoked", skill: "xlsx", expected: false });
    expect(absent).toMatchObject({
      passed: true,
      evidence: '"xlsx" was not invoked. Skills loaded, in order: "pdf", "release-notes"',
    });
    const present = await gradeOne({ type: "skill_invoked", expected: false });
    expect(present).toMatchObject({ passed: false });
    expect(present.evidence).toMatch(/^"release-notes" was invoked/);
  });

  it("recognises the skill under test by its installed alias", async () => {
    const events = [toolUse("Skill", { skill: "sg-7f3a-release-notes" })];
    const graded = await gradeOne(
      { type: "skill_invoked" },
      { events, skillAliases: ["sg-7f3a-release-notes"] },
    );
    expect(graded).toMatchObject({
      passed: true,
      evidence:
        '"release-notes" was invoked. Skills loaded, in order: "sg-7f3a-release-notes" (installed name of "release-notes")',
    });
    expect((await gradeOne({ type: "skill_invoked" }, { events })).passed).toBe(false);
    const other = await gradeOne(
      { type: "skill_invoked", skill: "pdf" },
      { events, skillAliases: ["sg-7f3a-release-notes"] },
    );
    expect(other.passed).toBe(false);
  });
});

describe("tool_called", () => {
  it("passes when called at least once by default, with the count and the tools seen", async () => {
    const graded = await gradeOne({ type: "tool_called", name: "Write" });
    expect(graded).toMatchObject({
      passed: true,
      check_type: "tool_called",
      evidence: "Write was called once. Tools called: Bash ×1, Read ×3, Skill ×1, Write ×1",
    });
  });

  it("fails for a tool never called", async () => {
    const graded = await gradeOne({ type: "tool_called", name: "Edit" });
    expect(graded).toMatchObject({ passed: false });
    expect(graded.evidence).toMatch(/^Edit was called 0 times\. Tools called: Bash/);
    const silent = await gradeOne({ type: "tool_called", name: "Edit" }, { events: [] });
    expect(silent.evidence).toBe("Edit was called 0 times. No tool was called");
  });

  it("honours min and max", async () => {
    const grade = async (min: number | undefined, max: number | undefined) =>
      (
        await gradeOne({
          type: "tool_called",
          name: "Read",
          ...(min !== undefined ? { min } : {}),
          ...(max !== undefined ? { max } : {}),
        })
      ).passed;
    expect(await grade(3, undefined)).toBe(true);
    expect(await grade(4, undefined)).toBe(false);
    expect(await grade(undefined, 3)).toBe(true);
    expect(await grade(undefined, 2)).toBe(false);
    expect(await grade(2, 3)).toBe(true);
    expect(await grade(1, 2)).toBe(false);
    expect(await grade(0, undefined)).toBe(true);
  });

  it("with max alone, allows zero calls; with max 0, forbids the tool", async () => {
    expect((await gradeOne({ type: "tool_called", name: "Edit", max: 2 })).passed).toBe(true);
    expect((await gradeOne({ type: "tool_called", name: "Edit", max: 0 })).passed).toBe(true);
    expect((await gradeOne({ type: "tool_called", name: "Bash", max: 0 })).passed).toBe(false);
  });

  it("fails a check that can never pass, saying so", async () => {
    const graded = await gradeOne({ type: "tool_called", name: "Read", min: 3, max: 2 });
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toBe(
      "min 3 is greater than max 2, so the check can never pass. Read was called 3 times",
    );
  });
});
