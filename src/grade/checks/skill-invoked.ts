import { skillLoadOf } from "../../agents/registry.js";
import type { Check } from "../../contracts/checks.js";
import type { CheckContext, CheckVerdict } from "./context.js";

type SkillInvokedCheck = Extract<Check, { type: "skill_invoked" }>;

export function describeSkillInvoked(check: SkillInvokedCheck, skillName: string): string {
  const skill = check.skill ?? skillName;
  return `the skill ${JSON.stringify(skill)} is ${check.expected === false ? "not " : ""}invoked`;
}

export function gradeSkillInvoked(check: SkillInvokedCheck, ctx: CheckContext): CheckVerdict {
  const skill = check.skill ?? ctx.skillName;
  // Stryker disable next-line ArrayDeclaration: equivalent, a made-up alias names no skill an agent loads
  const aliases = skill === ctx.skillName ? (ctx.skillAliases ?? []) : [];
  const names = new Set([skill, ...aliases]);
  const loaded = loadedSkills(ctx);
  const invoked = loaded.some((name) => names.has(name));
  const expected = check.expected !== false;
  const seen =
    loaded.length === 0
      ? "No skill was loaded"
      : `Skills loaded, in order: ${loaded.map((name) => label(name, skill, aliases)).join(", ")}`;
  const verdict = invoked
    ? `${JSON.stringify(skill)} was invoked`
    : `${JSON.stringify(skill)} was not invoked`;
  return { passed: invoked === expected, evidence: `${verdict}. ${seen}` };
}

// Each skill once, in the order it was first loaded (a skill-tool call and a read of its SKILL.md are one load).
function loadedSkills(ctx: CheckContext): string[] {
  const loaded: string[] = [];
  for (const event of ctx.events) {
    const name = skillLoadOf(event);
    if (name !== undefined && !loaded.includes(name)) loaded.push(name);
  }
  return loaded;
}

function label(name: string, skill: string, aliases: readonly string[]): string {
  const quoted = JSON.stringify(name);
  return aliases.includes(name) && name !== skill
    ? `${quoted} (installed name of ${JSON.stringify(skill)})`
    : quoted;
}
