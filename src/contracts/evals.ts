import { z } from "zod";
import { parseByteSize } from "./byte-size.js";
import { Check } from "./checks.js";

export const EvalId = z.union([z.number().int(), z.string().min(1)]);
export type EvalId = z.infer<typeof EvalId>;

/** skill-creator's integer `eval_id` for an eval: its own id when that is a number, else its 1-based position. */
export function numericEvalId(id: EvalId, index: number): number {
  return typeof id === "number" ? id : index + 1;
}

// A statement to grade: a sentence, or grading.json's `{text, passed, evidence}` shape, read as its text.
export const Expectation = z.union(
  [z.string(), z.looseObject({ text: z.string() }).transform((entry) => entry.text)],
  { error: "expected a sentence or an object with a `text` string" },
);

// Plain sentences under `checks` are statements meant for the judge; they join the expectations.
const CheckEntry = z.union([z.string(), Check]);

/** Fields of an eval, as written; anything else is kept but reported by the suite rules. */
export const evalFields = [
  "id",
  "name",
  "prompt",
  "expected_output",
  "files",
  "expectations",
  "assertions",
  "timeout",
  "checks",
] as const;

// One artifact eval as written by skill-creator, BMad or us; `assertions` is skill-creator's alias.
export const EvalCaseInput = z.looseObject({
  id: EvalId,
  name: z.string().optional(),
  prompt: z.string().min(1),
  expected_output: z.string().optional(),
  files: z.array(z.string().min(1)).optional(),
  expectations: z.array(Expectation).optional(),
  assertions: z.array(Expectation).optional(),
  timeout: z.number().positive().optional(),
  checks: z.array(CheckEntry).optional(),
});

// No expectations is allowed: authors save prompts first; the suite rules warn that nothing grades such an eval.
export const EvalCase = EvalCaseInput.transform((raw) => {
  const { assertions, ...rest } = raw;
  const entries = raw.checks ?? [];
  const statements = entries.filter((c): c is string => typeof c === "string");
  const checks = entries.filter((c): c is Check => typeof c !== "string");
  const expectations = [...(raw.expectations ?? assertions ?? []), ...statements];
  return { ...rest, expectations, checks, files: raw.files ?? [] };
});
export type EvalCase = z.output<typeof EvalCase>;

export const evalsFileFields = [
  "skill_name",
  "_design_notes",
  "sandbox",
  "env",
  "max_output",
  "max_output_file",
  "max_output_files",
  "conditions",
  "evals",
] as const;

/** An environment variable's name as a shell writes it: letters, digits and `_`, not starting with a digit. */
export const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
  error: "expected a variable name (letters, digits and _, not starting with a digit)",
});

const ByteSize = z.string().refine((text) => parseByteSize(text) !== undefined, {
  message: 'expected a size such as "200MB", "50MB" or "1GB"',
});

/**
 * Where the suite's trigger runs are made, so CI makes them there every time: the flags of the same names win. Paths
 * are relative to the folder of evals.json.
 */
export const SuiteConditions = z.strictObject({
  /** `--project-root`: each trigger run starts in a copy of this project. */
  project_root: z.string().min(1).optional(),
  /** `--installed`: folders of skill folders installed beside the skill. */
  installed: z.array(z.string().min(1)).min(1).optional(),
  /** `--context`: the prior conversation each trigger run continues. */
  context: z.string().min(1).optional(),
  /** `--conditions clean,real`: the queries run in the clean room too, side by side. */
  side_by_side: z.boolean().optional(),
});
export type SuiteConditions = z.infer<typeof SuiteConditions>;

export const EvalsFile = z
  .looseObject({
    skill_name: z.string().optional(),
    _design_notes: z.union([z.string(), z.array(z.string())]).optional(),
    /** Every agent run of the suite inside an OS sandbox, as `--sandbox` asks: a CI job cannot forget the flag. */
    sandbox: z.boolean().optional(),
    /** Names of skillgym's environment variables passed on to the suite's agent runs, checks and judges. */
    env: z.array(EnvName).optional(),
    /** What each run's created or changed files may come to, as `--max-output` (which wins when given). */
    max_output: ByteSize.optional(),
    /** The largest file a run may create or change, as `--max-output-file`. */
    max_output_file: ByteSize.optional(),
    /** How many files a run may create or change, as `--max-output-files`. */
    max_output_files: z.number().int().positive().optional(),
    /** Where the suite's trigger runs are made (`--project-root`, `--installed`, `--context`, side by side). */
    conditions: SuiteConditions.optional(),
    evals: z.array(EvalCase),
  })
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    const numbers = new Map<number, number>();
    file.evals.forEach((e, i) => {
      const key = String(e.id);
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["evals", i, "id"],
          message: `duplicate id ${JSON.stringify(e.id)} (first used by evals[${first}])`,
          params: { hint: "give every eval its own id" },
        });
        return;
      }
      seen.set(key, i);
      const number = numericEvalId(e.id, i);
      const clash = numbers.get(number);
      if (clash !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["evals", i, "id"],
          message: `${JSON.stringify(e.id)} becomes eval_id ${number} in skill-creator's files, as does evals[${clash}] (a number id is kept, a string id becomes its position)`,
          params: { hint: `change the number id ${number}, or use string ids (or number ids) throughout` },
        });
      } else numbers.set(number, i);
    });
  })
  .transform((file) => ({
    ...file,
    evals: file.evals.map((e, i) => ({ ...e, numericId: numericEvalId(e.id, i) })),
  }));
export type EvalsFile = z.output<typeof EvalsFile>;

export const triggerQueryFields = ["query", "should_trigger", "expected_skill"] as const;

export const TriggerQuery = z.looseObject({
  query: z.string().min(1),
  should_trigger: z.boolean(),
});
export type TriggerQuery = z.infer<typeof TriggerQuery>;

export const TriggersFile = z.array(TriggerQuery);
export type TriggersFile = z.infer<typeof TriggersFile>;

// skill-creator's shape. We write an integer `eval_id` (its aggregator sorts by it); iterations written before
// that hold the suite's own id, which is still read.
export const EvalMetadata = z.object({
  eval_id: EvalId,
  eval_name: z.string(),
  prompt: z.string(),
  assertions: z.array(z.string()),
});
export type EvalMetadata = z.infer<typeof EvalMetadata>;
