import type { EvalCase, EvalsFile, TriggerQuery } from "../contracts/evals.js";
import type { Finding } from "../findings.js";
import { toWorkspacePath } from "./workspace-path.js";

const minQueriesPerSide = 3;

/** Rules the schema cannot express: regexes that compile, workspace-relative check paths, usable ids. */
export function evalsFileRules(evals: EvalsFile, file: string, skillName: string): Finding[] {
  const findings: Finding[] = [];
  if (evals.skill_name !== undefined && evals.skill_name !== skillName) {
    findings.push({
      severity: "warning",
      code: "skill-name-mismatch",
      file,
      location: "skill_name",
      message: `says ${JSON.stringify(evals.skill_name)} but the skill is named ${JSON.stringify(skillName)}`,
      hint: "skill_name is documentation only; make it match the SKILL.md name or remove it",
    });
  }
  if (evals.evals.length === 0) {
    findings.push({ severity: "warning", code: "no-evals", file, location: "evals", message: "is empty" });
  }
  evals.evals.forEach((e, i) => {
    findings.push(...idRules(e, i, file), ...checkRules(e, i, file));
  });
  return findings;
}

export function triggersFileRules(triggers: readonly TriggerQuery[], file: string): Finding[] {
  const positive = triggers.filter((t) => t.should_trigger).length;
  const negative = triggers.length - positive;
  if (positive >= minQueriesPerSide && negative >= minQueriesPerSide) return [];
  return [
    {
      severity: "warning",
      code: "few-trigger-queries",
      file,
      message: `${positive} should_trigger true and ${negative} false; with fewer than ${minQueriesPerSide} on either side precision and recall mean little`,
      hint: "add realistic queries on both sides, including near-misses that should not trigger",
    },
  ];
}

// The id names the run folder (`eval-<id>`) and the per-eval overlay folder, so it must be a plain name.
function idRules(e: EvalCase, i: number, file: string): Finding[] {
  if (typeof e.id !== "string") return [];
  const id = e.id;
  if (id === "." || id === ".." || /[/\\:*?"<>|\u0000-\u001f]/.test(id) || id.trim() !== id) {
    return [
      {
        severity: "error",
        code: "eval-id",
        file,
        location: `evals[${i}].id`,
        message: `${JSON.stringify(id)} cannot be used as a folder name`,
        hint: "use letters, digits, '-' or '_' (for example \"A1\" or \"empty-input\")",
      },
    ];
  }
  return [];
}

function checkRules(e: EvalCase, i: number, file: string): Finding[] {
  const findings: Finding[] = [];
  e.checks.forEach((check, j) => {
    const at = `evals[${i}].checks[${j}]`;
    if ("path" in check) {
      const path = toWorkspacePath(check.path);
      if (!path.ok) {
        findings.push({
          severity: "error",
          code: "check-path",
          file,
          location: `${at}.path`,
          message: `${JSON.stringify(check.path)} ${path.reason}`,
          hint: "check paths are relative to the run's workspace",
        });
      }
    }
    if (check.type === "file_contains") {
      const problem = regexProblem(check.pattern, check.flags);
      if (problem) {
        findings.push({
          severity: "error",
          code: "check-regex",
          file,
          location: `${at}.${problem.field}`,
          message: `not a valid regular expression: ${problem.message}`,
          hint: "write a JavaScript regular expression source; in JSON a backslash is written \\\\",
        });
      }
    }
  });
  return findings;
}

function regexProblem(
  pattern: string,
  flags: string | undefined,
): { field: string; message: string } | undefined {
  try {
    new RegExp(pattern);
  } catch (error) {
    return { field: "pattern", message: (error as Error).message };
  }
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return { field: "flags", message: (error as Error).message };
  }
  return undefined;
}
