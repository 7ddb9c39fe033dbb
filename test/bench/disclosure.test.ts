import { describe, expect, it } from "vitest";
import { disclosureCoverage } from "../../src/bench/disclosure.js";
import type { IterationData, RunData } from "../../src/bench/model.js";
import type { Activation } from "../../src/contracts/activation.js";

const bundled = ["SKILL.md", "references/forms.md", "scripts/fill.py"];

function activation(opened: string[], fired = true): Activation {
  return {
    skill: "demo",
    configuration: "with_skill",
    fired: fired ? [{ skill: "demo", via: "tool", turn: 1 }] : [],
    skill_fired: fired,
    bundled_files: bundled,
    files_opened: opened.map((path, i) => ({
      path,
      kind: "other",
      how: "read",
      turn: i + 1,
      tool_use_id: `t${i}`,
    })),
    unexpected_skills: [],
    contaminated: false,
    contamination: [],
  };
}

function run(
  evalId: number,
  configuration: RunData["configuration"],
  runNumber: number,
  act?: Activation,
): RunData {
  return {
    evalId,
    evalName: `eval-${evalId}`,
    configuration,
    runNumber,
    ...(act ? { activation: act } : {}),
    problems: [],
  };
}

function iteration(runs: RunData[], configurations: RunData["configuration"][]): IterationData {
  return {
    dir: "/ws/demo-workspace/iteration-1",
    evals: [
      { id: 1, name: "one", folder: "eval-1" },
      { id: 2, name: "two", folder: "eval-2" },
    ],
    configurations,
    runs,
    problems: [],
  };
}

describe("disclosureCoverage", () => {
  it("counts per eval and configuration with the skill the runs that opened each bundled file", () => {
    const data = iteration(
      [
        run(1, "with_skill", 1, activation(["SKILL.md", "references/forms.md"])),
        run(1, "with_skill", 2, activation(["SKILL.md", "SKILL.md"])),
        run(1, "with_skill", 3, activation([], false)),
        run(1, "with_skill", 4),
        run(1, "without_skill", 1, activation(["SKILL.md"])),
        run(2, "old_skill", 1, activation(["scripts/fill.py"])),
      ],
      ["with_skill", "without_skill", "old_skill"],
    );
    expect(disclosureCoverage(data)).toEqual([
      {
        eval_id: 1,
        configuration: "with_skill",
        runs: 3,
        fired: 2,
        files: [
          { path: "SKILL.md", kind: "skill_md", opened_in: 2 },
          { path: "references/forms.md", kind: "reference", opened_in: 1 },
          { path: "scripts/fill.py", kind: "script", opened_in: 0 },
        ],
        never_opened: ["scripts/fill.py"],
      },
      {
        eval_id: 2,
        configuration: "old_skill",
        runs: 1,
        fired: 1,
        files: [
          { path: "SKILL.md", kind: "skill_md", opened_in: 0 },
          { path: "references/forms.md", kind: "reference", opened_in: 0 },
          { path: "scripts/fill.py", kind: "script", opened_in: 1 },
        ],
        never_opened: ["SKILL.md", "references/forms.md"],
      },
    ]);
  });

  it("sorts the files and lists each once, whatever order the runs name them in", () => {
    const later: Activation = {
      ...activation([]),
      bundled_files: ["scripts/fill.py", "SKILL.md", "assets/a.png"],
    };
    const data = iteration(
      [run(1, "with_skill", 1, activation([])), run(1, "with_skill", 2, later)],
      ["with_skill"],
    );
    expect(disclosureCoverage(data)[0]?.files.map((f) => [f.path, f.kind])).toEqual([
      ["SKILL.md", "skill_md"],
      ["assets/a.png", "asset"],
      ["references/forms.md", "reference"],
      ["scripts/fill.py", "script"],
    ]);
  });

  it("is empty when no run has an activation.json, and leaves out runs without the skill", () => {
    expect(disclosureCoverage(iteration([run(1, "with_skill", 1)], ["with_skill"]))).toEqual([]);
    const onlyWithout = iteration([run(1, "without_skill", 1, activation(["SKILL.md"]))], ["without_skill"]);
    expect(disclosureCoverage(onlyWithout)).toEqual([]);
  });
});
