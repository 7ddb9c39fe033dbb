import type { ConfigurationName } from "../contracts/run-record.js";
import type { ResolvedEval } from "../suite/model.js";
import type { WorkspacePlan } from "../workspace/index.js";

export interface RunWorkspaceInput {
  dir: string;
  configuration: ConfigurationName;
  eval: ResolvedEval;
  skill: { dir: string; name: string };
  baselineSkillDir?: string;
  projectRoot?: string;
  baseOverlay?: string;
  excludePaths: string[];
  skillsFolder: string;
}

/** The workspace of one artifact-eval run (SPEC §2); the same plan rebuilds it when a run is re-graded. */
export function runWorkspacePlan(input: RunWorkspaceInput): WorkspacePlan {
  const skills =
    input.configuration === "with_skill"
      ? [{ sourceDir: input.skill.dir, installName: input.skill.name }]
      : input.configuration === "old_skill" && input.baselineSkillDir
        ? [{ sourceDir: input.baselineSkillDir, installName: input.skill.name }]
        : [];
  return {
    dir: input.dir,
    ...(input.projectRoot ? { projectRoot: input.projectRoot } : {}),
    projectExcludes: input.excludePaths,
    ...(input.baseOverlay ? { baseOverlay: input.baseOverlay } : {}),
    ...(input.eval.overlay ? { evalOverlay: input.eval.overlay } : {}),
    skills,
    skillsFolder: input.skillsFolder,
    fixtures: input.eval.fixtures,
  };
}
