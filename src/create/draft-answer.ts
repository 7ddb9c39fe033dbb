import { z } from "zod";
import { EvalsFile, TriggersFile } from "../contracts/evals.js";
import { errorsOf } from "../findings.js";
import { jsonObjectsIn } from "../judge/json-objects.js";
import { evalsFileRules } from "../suite/suite-rules.js";

export interface Draft {
  triggers: TriggersFile;
  /** The evals as the model wrote them, for evals.json. */
  evals: unknown[];
  /** The same evals as the contract reads them. */
  parsed: EvalsFile;
}

export type DraftReading = { ok: true; draft: Draft } | { ok: false; reason: string };

const DraftAnswer = z.looseObject({ triggers: TriggersFile, evals: z.array(z.unknown()) });

function issuesText(error: z.ZodError, prefix: string): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${[prefix, ...i.path].join(".")}: ${i.message}`)
    .join("; ");
}

/** Reads the drafter's answer: the first JSON object with `triggers` and `evals`, checked against the contracts. */
export function readDraftAnswer(
  text: string,
  expected: { name: string; triggers: number; evals: number },
): DraftReading {
  const objects = jsonObjectsIn(text);
  if (objects.length === 0) return { ok: false, reason: "the answer holds no JSON object" };
  const candidate = objects.find((o) => "triggers" in o && "evals" in o) ?? objects[0];
  const answer = DraftAnswer.safeParse(candidate);
  if (!answer.success) return { ok: false, reason: issuesText(answer.error, "answer") };
  const evals = EvalsFile.safeParse({ evals: answer.data.evals });
  if (!evals.success) return { ok: false, reason: issuesText(evals.error, "answer") };
  const triggers = answer.data.triggers;
  if (triggers.length === 0 && expected.triggers > 0)
    return { ok: false, reason: "answer.triggers is empty" };
  if (
    expected.triggers > 1 &&
    !(triggers.some((t) => t.should_trigger) && triggers.some((t) => !t.should_trigger))
  )
    return {
      ok: false,
      reason: "answer.triggers needs queries on both sides (should_trigger true and false)",
    };
  if (answer.data.evals.length === 0 && expected.evals > 0)
    return { ok: false, reason: "answer.evals is empty" };
  // Stryker disable next-line StringLiteral: equivalent, the reason names each finding's place, not its file
  const ruleErrors = errorsOf(evalsFileRules(evals.data, "answer", expected.name));
  if (ruleErrors.length > 0) {
    return {
      ok: false,
      // Stryker disable next-line StringLiteral: equivalent, every finding of evalsFileRules names its place
      reason: ruleErrors.map((f) => `answer.${f.location ?? ""}: ${f.message}`).join("; "),
    };
  }
  return { ok: true, draft: { triggers, evals: answer.data.evals, parsed: evals.data } };
}
