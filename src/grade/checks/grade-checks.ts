import { type Check, checkTypes } from "../../contracts/checks.js";
import type { GradedExpectation } from "../../contracts/grading.js";
import { describeCommand, gradeCommand } from "./command.js";
import type { CheckContext, CheckVerdict } from "./context.js";
import { errorMessage } from "./evidence.js";
import { describeFileContains, gradeFileContains } from "./file-contains.js";
import { describeFileExists, gradeFileExists } from "./file-exists.js";
import { describeFileUnchanged, gradeFileUnchanged } from "./file-unchanged.js";
import { describeSkillInvoked, gradeSkillInvoked } from "./skill-invoked.js";
import { describeToolCalled, gradeToolCalled } from "./tool-called.js";

/** The readable statement of a check: its own description when given. */
export function describeCheck(check: Check, skillName: string): string {
  if (check.description !== undefined && check.description.trim() !== "") return check.description;
  switch (check.type) {
    case "file_exists":
      return describeFileExists(check);
    case "file_contains":
      return describeFileContains(check);
    case "file_unchanged":
      return describeFileUnchanged(check);
    case "command":
      return describeCommand(check);
    case "skill_invoked":
      return describeSkillInvoked(check, skillName);
    case "tool_called":
      return describeToolCalled(check);
    default:
      throw new Error(`unknown check type ${JSON.stringify((check as { type?: unknown }).type)}`);
  }
}

// Checks run one after another: commands share the workspace and may not expect company.
export async function gradeChecks(checks: readonly Check[], ctx: CheckContext): Promise<GradedExpectation[]> {
  const graded: GradedExpectation[] = [];
  for (const check of checks) graded.push(await gradeCheck(check, ctx));
  return graded;
}

async function gradeCheck(check: Check, ctx: CheckContext): Promise<GradedExpectation> {
  let text: string;
  try {
    text = describeCheck(check, ctx.skillName);
  } catch {
    text = `a check of type ${JSON.stringify((check as { type?: unknown }).type)}`;
  }
  let verdict: CheckVerdict;
  try {
    verdict = await verdictOf(check, ctx);
  } catch (error) {
    verdict = { passed: false, evidence: `The check could not be graded: ${errorMessage(error)}` };
  }
  const known = checkTypeOf(check);
  return { text, ...verdict, source: "check", ...(known ? { check_type: known } : {}) };
}

function verdictOf(check: Check, ctx: CheckContext): Promise<CheckVerdict> | CheckVerdict {
  switch (check.type) {
    case "file_exists":
      return gradeFileExists(check, ctx);
    case "file_contains":
      return gradeFileContains(check, ctx);
    case "file_unchanged":
      return gradeFileUnchanged(check, ctx);
    case "command":
      return gradeCommand(check, ctx);
    case "skill_invoked":
      return gradeSkillInvoked(check, ctx);
    case "tool_called":
      return gradeToolCalled(check, ctx);
    default:
      throw new Error(`unknown check type ${JSON.stringify((check as { type?: unknown }).type)}`);
  }
}

function checkTypeOf(check: Check): Check["type"] | undefined {
  const type = (check as { type?: unknown }).type;
  return checkTypes.find((known) => known === type);
}
