import { resolve } from "node:path";
import type { Agent } from "../agents/agent.js";
import type { ConfigurationName } from "../contracts/run-record.js";
import { SkillgymError } from "../errors.js";
import { errorsOf, formatFinding } from "../findings.js";
import { loadSkill, type Skill } from "../skill/index.js";
import type { ResolvedEval, Suite } from "../suite/model.js";
import { DEFAULT_OUTPUT_LIMITS } from "../workspace/index.js";
import type { StagingContext } from "./execute-run.js";
import { defaultWorkspace } from "./iteration.js";
import { type RunOptions, runInputs } from "./options.js";
import { selectEvals, selects } from "./plan.js";

/** What an eval command checks and settles before any agent exists: the inputs, the evals, the baseline. */
export interface EvalSetup {
  skill: Skill;
  suite: Suite;
  evals: ResolvedEval[];
  baselineDir?: string;
  configurations: ConfigurationName[];
  workspace: string;
}

async function loadBaseline(baseline: string): Promise<string | undefined> {
  if (baseline === "without_skill" || baseline === "none") return undefined;
  const loaded = await loadSkill(baseline);
  if (!loaded.skill || errorsOf(loaded.findings).length > 0) {
    const lines = errorsOf(loaded.findings).map((f) => `  ${formatFinding(f)}`);
    throw new SkillgymError(
      "INVALID_SKILL",
      `the baseline skill ${baseline} is not valid:\n${lines.join("\n")}`,
      {
        hint: "--baseline takes without_skill, none, or the folder of an earlier version of the skill",
      },
    );
  }
  return loaded.skill.dir;
}

export function configurationsFor(baseline: string): ConfigurationName[] {
  if (baseline === "none") return ["with_skill"];
  if (baseline === "without_skill") return ["with_skill", "without_skill"];
  return ["with_skill", "old_skill"];
}

export async function evalSetup(
  options: RunOptions & { baseline: string; only?: string[] },
): Promise<EvalSetup> {
  const { skill, suite } = await runInputs(options, "evals");
  const baselineDir = await loadBaseline(options.baseline);
  const evals = selectEvals(suite.evals, options.only);
  const unknown = (options.only ?? []).filter((id) => !suite.evals.some((e) => selects(id, e, suite.evals)));
  if (unknown.length > 0) {
    throw new SkillgymError("USAGE", `--only names evals that do not exist: ${unknown.join(", ")}`, {
      hint: `the ids in ${suite.evalsFile} are: ${suite.evals.map((e) => e.id).join(", ")}`,
    });
  }
  if (evals.length === 0) throw new SkillgymError("NO_EVALS", `${suite.evalsFile} has no evals to run`);
  return {
    skill,
    suite,
    evals,
    ...(baselineDir ? { baselineDir } : {}),
    configurations: configurationsFor(options.baseline),
    workspace: resolve(options.workspace ?? defaultWorkspace(skill.dir, skill.name)),
  };
}

export function stagingContext(
  setup: EvalSetup,
  options: Pick<RunOptions, "projectRoot" | "model" | "outputLimits">,
  agent: Agent,
  tempRoot: string,
): StagingContext {
  const { skill, suite, baselineDir, workspace } = setup;
  return {
    agent,
    skill: { dir: skill.dir, name: skill.name },
    ...(baselineDir ? { baselineSkillDir: baselineDir } : {}),
    ...(options.projectRoot ? { projectRoot: resolve(options.projectRoot) } : {}),
    ...(suite.baseOverlay ? { baseOverlay: suite.baseOverlay } : {}),
    excludePaths: [skill.dir, suite.dir, workspace, ...(baselineDir ? [baselineDir] : [])],
    ...(options.model ? { model: options.model } : {}),
    outputLimits: { ...DEFAULT_OUTPUT_LIMITS, ...suite.outputLimits, ...options.outputLimits },
    tempRoot,
  };
}
