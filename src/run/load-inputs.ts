import { resolve } from "node:path";
import { SkillgymError } from "../errors.js";
import { errorsOf, type Finding, formatFinding } from "../findings.js";
import { loadSkill, type Skill } from "../skill/index.js";
import { findProjectRoot, loadSuite, type Suite } from "../suite/index.js";

export interface LoadedInputs {
  skill: Skill;
  suite: Suite;
  projectRoot: string;
  warnings: Finding[];
}

function invalid(code: "INVALID_SKILL" | "INVALID_SUITE", what: string, findings: Finding[]): SkillgymError {
  const errors = errorsOf(findings);
  return new SkillgymError(code, `${what}:\n${errors.map((f) => `  ${formatFinding(f)}`).join("\n")}`, {
    hint: "fix the errors above (`skillgym validate` lists every finding); nothing was run",
  });
}

/** Loads and checks the skill and its suite; any error stops here, before an agent starts or money is spent. */
export async function loadInputs(options: {
  skillPath: string;
  evalsPath?: string;
  projectRoot?: string;
  need: "evals" | "triggers" | "any";
}): Promise<LoadedInputs> {
  const loaded = await loadSkill(options.skillPath);
  if (!loaded.skill || errorsOf(loaded.findings).length > 0)
    throw invalid("INVALID_SKILL", "the skill is not valid", loaded.findings);
  const skill = loaded.skill;
  const projectRoot = options.projectRoot ? resolve(options.projectRoot) : await findProjectRoot(skill.dir);
  const suiteResult = await loadSuite({
    skillDir: skill.dir,
    skillName: skill.name,
    projectRoot,
    ...(options.evalsPath ? { evalsPath: options.evalsPath } : {}),
  });
  if (errorsOf(suiteResult.findings).length > 0)
    throw invalid("INVALID_SUITE", "the eval suite is not valid", suiteResult.findings);
  const suite = suiteResult.suite;
  // A suite is found only with an evals.json or a triggers.json, so one found serves a command that needs either.
  const missing =
    !suite ||
    (options.need === "evals" ? !suite.evalsFile : options.need === "triggers" && !suite.triggersFile);
  if (missing || !suite) {
    const file = options.need === "any" ? "evals.json or triggers.json" : `${options.need}.json`;
    throw new SkillgymError("NO_EVALS", `no ${file} found for skill "${skill.name}"`, {
      hint:
        `put one in ${skill.dir}/evals/, in <project>/evals/${skill.name}/, or pass --evals PATH ` +
        "(searched: --evals, <skill>/evals/, <skill>/../../evals/<name>/, <project-root>/evals/<name>/, <project-root>/evals/**/<name>/)",
    });
  }
  return { skill, suite, projectRoot, warnings: [...loaded.findings, ...suiteResult.findings] };
}
