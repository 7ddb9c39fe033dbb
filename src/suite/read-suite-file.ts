import type { z } from "zod";
import type { InputRulesResult } from "./input-rules.js";
import { checkAgainstSchema, type JsonFileResult, parseJsonText, readJsonText } from "./json-file.js";

/** Reads a suite file: the rules on the file as written, then its schema; the value is absent when either has errors. */
export async function readSuiteFile<S extends z.ZodType>(
  file: string,
  schema: S,
  inputRules: (data: unknown, file: string) => InputRulesResult,
): Promise<JsonFileResult<z.output<S>>> {
  const text = await readJsonText(file);
  if (!text.ok) return { findings: [text.finding] };
  const parsed = parseJsonText(text.data, file);
  if (!parsed.ok) return { findings: [parsed.finding] };
  const rules = inputRules(parsed.data, file);
  const checked = checkAgainstSchema(parsed.data, schema, file, rules.misspelled);
  const findings = [...rules.findings, ...checked.findings];
  if (findings.some((f) => f.severity === "error")) return { findings };
  // Stryker disable next-line ConditionalExpression: equivalent, a value is missing only after a schema error, returned above
  return checked.value === undefined ? { findings } : { value: checked.value, findings };
}
