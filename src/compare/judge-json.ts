import type { z } from "zod";
import { jsonObjectsIn } from "../judge/json-objects.js";
import type { Judge, JudgeRequest } from "../judge/judge.js";
import { JudgeError, withEarlierCost } from "../judge/judge.js";
import { jsonPath } from "../suite/schema-issues.js";

export interface JsonAnswer<T> {
  value: T;
  model: string;
  simulated: boolean;
  costUsd: number;
  attempts: number;
}

export interface AskForJsonOptions<S extends z.ZodType> {
  judge: Judge;
  request: JudgeRequest;
  schema: S;
  /** Names the answer in errors: "comparator", "analyzer". */
  role: string;
  /** Fills in or corrects fields we know better than the model before the answer is checked. */
  normalize?: (data: Record<string, unknown>) => Record<string, unknown>;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

// A model's answer that cannot be read is asked for once more, with the reason, before giving up.
export async function askForJson<S extends z.ZodType>(
  options: AskForJsonOptions<S>,
): Promise<JsonAnswer<z.output<S>>> {
  const { judge, request, role } = options;
  let costUsd = 0;
  // Stryker disable next-line StringLiteral: equivalent, the first answer that cannot be used sets it before it is read
  let problem = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    const prompt =
      attempt === 1
        ? request.prompt
        : `${request.prompt}\n\nYour previous answer could not be used: ${problem}\n` +
          "Answer again with exactly ONE JSON object in the format described above, and nothing else.";
    const response = await judge.complete({ ...request, prompt }).catch((error: unknown) => {
      throw withEarlierCost(error, costUsd);
    });
    costUsd += response.costUsd;
    const parsed = parseAnswer(response.text, options);
    if (parsed.ok) {
      return {
        value: parsed.value,
        model: response.model,
        simulated: judge.simulated,
        costUsd,
        attempts: attempt,
      };
    }
    problem = parsed.problem;
  }
  throw new JudgeError(`the ${role}'s answer could not be used after 2 attempts: ${problem}`, false, {
    costUsd,
  });
}

function parseAnswer<S extends z.ZodType>(text: string, options: AskForJsonOptions<S>): Parsed<z.output<S>> {
  const data = extractJsonObject(text);
  if (data === undefined) return { ok: false, problem: "it contains no JSON object" };
  const normalized = options.normalize ? options.normalize(data) : data;
  const result = options.schema.safeParse(normalized);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => `${jsonPath(issue.path) ?? "(top level)"}: ${issue.message}`);
  return { ok: false, problem: `the JSON does not match the format (${issues.join("; ")})` };
}

/** The first JSON object in a model's answer: bare, in a ``` fence, or inside prose. */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  return jsonObjectsIn(text, 1)[0];
}
