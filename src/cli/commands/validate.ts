import type { Command } from "commander";
import { errorsOf, type Finding, formatFinding, warningsOf } from "../../findings.js";
import { loadSkill } from "../../skill/index.js";
import { findProjectRoot, loadSuite } from "../../suite/index.js";
import type { Io } from "../io.js";

interface ValidateFlags {
  evals?: string;
  projectRoot?: string;
  json?: boolean;
}

async function validate(skillPath: string, flags: ValidateFlags): Promise<Finding[]> {
  const loaded = await loadSkill(skillPath);
  const findings = [...loaded.findings];
  if (!loaded.skill) return findings;
  const skill = loaded.skill;
  const projectRoot = flags.projectRoot ?? (await findProjectRoot(skill.dir));
  const suite = await loadSuite({
    skillDir: skill.dir,
    skillName: skill.name,
    projectRoot,
    ...(flags.evals ? { evalsPath: flags.evals } : {}),
  });
  findings.push(...suite.findings);
  if (!suite.suite && errorsOf(suite.findings).length === 0) {
    findings.push({
      severity: "warning",
      code: "no-evals",
      file: skill.dir,
      message: "no eval suite found, so nothing shows whether the skill works",
      hint: `add ${skill.dir}/evals/evals.json and triggers.json, or pass --evals PATH`,
    });
  }
  return findings;
}

export function registerValidate(program: Command, io: Io): void {
  program
    .command("validate")
    .description("check a skill and its eval suite; exit 0 when valid (warnings allowed), 2 when not")
    .argument("<skill>", "the skill folder (or its SKILL.md)")
    .option("--evals <path>", "the eval suite folder or file (default: discovered)")
    .option(
      "--project-root <dir>",
      "the project the skill belongs to (default: the nearest folder with .git)",
    )
    .option("--json", "print { valid, errors, warnings } as JSON")
    .action(async (skillPath: string, flags: ValidateFlags) => {
      const findings = await validate(skillPath, flags);
      const errors = errorsOf(findings);
      const warnings = warningsOf(findings);
      if (flags.json) {
        io.out(`${JSON.stringify({ valid: errors.length === 0, errors, warnings }, null, 2)}\n`);
      } else {
        for (const f of [...errors, ...warnings]) io.out(`${formatFinding(f)}\n`);
        const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
        io.out(
          errors.length === 0
            ? `valid: ${skillPath} (${plural(warnings.length, "warning")})\n`
            : `invalid: ${skillPath} (${plural(errors.length, "error")}, ${plural(warnings.length, "warning")})\n`,
        );
      }
      io.setExitCode(errors.length === 0 ? 0 : 2);
    });
}
