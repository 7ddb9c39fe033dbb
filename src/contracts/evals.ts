import { z } from "zod";
import { Check } from "./checks.js";

export const EvalId = z.union([z.number().int(), z.string().min(1)]);
export type EvalId = z.infer<typeof EvalId>;

// One artifact eval as written by skill-creator, BMad or us; `assertions` is skill-creator's alias.
export const EvalCaseInput = z.looseObject({
  id: EvalId,
  name: z.string().optional(),
  prompt: z.string().min(1),
  expected_output: z.string().optional(),
  files: z.array(z.string().min(1)).optional(),
  expectations: z.array(z.string()).optional(),
  assertions: z.array(z.string()).optional(),
  timeout: z.number().positive().optional(),
  checks: z.array(Check).optional(),
});

export const EvalCase = EvalCaseInput.transform((raw, ctx) => {
  const { assertions, ...rest } = raw;
  const expectations = raw.expectations ?? assertions;
  if (expectations === undefined && raw.checks === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["expectations"],
      message: "required (a list of statements to grade), unless `checks` cover the eval",
    });
    return z.NEVER;
  }
  return { ...rest, expectations: expectations ?? [], checks: raw.checks ?? [], files: raw.files ?? [] };
});
export type EvalCase = z.output<typeof EvalCase>;

export const EvalsFile = z
  .looseObject({
    skill_name: z.string().optional(),
    _design_notes: z.union([z.string(), z.array(z.string())]).optional(),
    evals: z.array(EvalCase),
  })
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    file.evals.forEach((e, i) => {
      const key = String(e.id);
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["evals", i, "id"],
          message: `duplicate id ${JSON.stringify(e.id)} (first used by evals[${first}])`,
        });
      } else seen.set(key, i);
    });
  });
export type EvalsFile = z.output<typeof EvalsFile>;

export const TriggerQuery = z.looseObject({
  query: z.string().min(1),
  should_trigger: z.boolean(),
});
export type TriggerQuery = z.infer<typeof TriggerQuery>;

export const TriggersFile = z.array(TriggerQuery);
export type TriggersFile = z.infer<typeof TriggersFile>;

export const EvalMetadata = z.object({
  eval_id: EvalId,
  eval_name: z.string(),
  prompt: z.string(),
  assertions: z.array(z.string()),
});
export type EvalMetadata = z.infer<typeof EvalMetadata>;
