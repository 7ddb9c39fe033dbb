import { describe, expect, it } from "vitest";
import { EvalCase } from "../../src/contracts/evals.js";
import { type RunWorkspaceInput, runWorkspacePlan } from "../../src/run/workspace-plan.js";

const fixtures = [{ source: "/suite/files/a.csv", target: "a.csv" }];
function input(over: Partial<RunWorkspaceInput> & { overlay?: string } = {}): RunWorkspaceInput {
  const { overlay, ...rest } = over;
  const parsed = EvalCase.parse({ id: 1, prompt: "go", expectations: ["done"] });
  return {
    dir: "/tmp/work",
    configuration: "with_skill",
    eval: { ...parsed, numericId: 1, fixtures, ...(overlay ? { overlay } : {}) },
    skill: { dir: "/skills/cards", name: "cards" },
    excludePaths: ["/project/evals"],
    skillsFolder: ".claude/skills",
    ...rest,
  };
}

describe("runWorkspacePlan", () => {
  it("installs the skill under test with the skill, the baseline's copy for old_skill, and none without it", () => {
    expect(runWorkspacePlan(input()).skills).toEqual([{ sourceDir: "/skills/cards", installName: "cards" }]);
    expect(
      runWorkspacePlan(input({ configuration: "old_skill", baselineSkillDir: "/old/cards" })).skills,
    ).toEqual([{ sourceDir: "/old/cards", installName: "cards" }]);
    expect(runWorkspacePlan(input({ configuration: "old_skill" })).skills).toEqual([]);
    expect(runWorkspacePlan(input({ configuration: "without_skill" })).skills).toEqual([]);
  });

  it("installs no skill without it, even when an earlier version is given", () => {
    expect(
      runWorkspacePlan(input({ configuration: "without_skill", baselineSkillDir: "/old/cards" })).skills,
    ).toEqual([]);
  });

  it("carries the project, the overlays, the excluded paths and the eval's fixtures, each only when given", () => {
    expect(
      runWorkspacePlan(
        input({ projectRoot: "/project", baseOverlay: "/suite/overlay", overlay: "/suite/evals/1/overlay" }),
      ),
    ).toEqual({
      dir: "/tmp/work",
      projectRoot: "/project",
      projectExcludes: ["/project/evals"],
      baseOverlay: "/suite/overlay",
      evalOverlay: "/suite/evals/1/overlay",
      skills: [{ sourceDir: "/skills/cards", installName: "cards" }],
      skillsFolder: ".claude/skills",
      fixtures,
    });
    expect(Object.keys(runWorkspacePlan(input()))).toEqual([
      "dir",
      "projectExcludes",
      "skills",
      "skillsFolder",
      "fixtures",
    ]);
  });
});
