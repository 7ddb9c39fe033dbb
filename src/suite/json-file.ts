import { readFile } from "node:fs/promises";
import type { z } from "zod";
import type { Finding } from "../findings.js";
import { groupFindings } from "./group-findings.js";
import { findJsonSyntaxError, lineColumnAt } from "./json-syntax.js";
import { describeIssue } from "./schema-issues.js";

export interface JsonFileResult<T> {
  value?: T;
  findings: Finding[];
}

export type JsonTextResult = { ok: true; data: unknown } | { ok: false; finding: Finding };

/** Reads a JSON file and checks it against a schema; never throws for bad input. */
export async function readJsonFile<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<JsonFileResult<z.output<S>>> {
  const text = await readJsonText(file);
  if (!text.ok) return { findings: [text.finding] };
  const parsed = parseJsonText(text.data, file);
  if (!parsed.ok) return { findings: [parsed.finding] };
  return checkAgainstSchema(parsed.data, schema, file);
}

export async function readJsonText(
  file: string,
): Promise<{ ok: true; data: string } | { ok: false; finding: Finding }> {
  try {
    return { ok: true, data: await readFile(file, "utf8") };
  } catch (error) {
    return { ok: false, finding: unreadable(file, error) };
  }
}

export function parseJsonText(text: string, file: string): JsonTextResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, data: JSON.parse(body) };
  } catch (error) {
    return { ok: false, finding: syntaxFinding(body, file, error) };
  }
}

/** `misspelled`: JSON paths whose "required" errors are dropped because a misspelled key already explains them. */
export function checkAgainstSchema<S extends z.ZodType>(
  data: unknown,
  schema: S,
  file: string,
  misspelled: ReadonlySet<string> = new Set(),
): JsonFileResult<z.output<S>> {
  const result = schema.safeParse(data);
  if (result.success) return { value: result.data, findings: [] };
  const findings = result.error.issues.flatMap((issue) =>
    describeIssue(issue, data).map(
      ({ location, message, hint }): Finding => ({
        severity: "error",
        code: "json-schema",
        file,
        ...(location ? { location } : {}),
        message,
        hint,
      }),
    ),
  );
  const explained = (f: Finding) =>
    f.location !== undefined && misspelled.has(f.location) && f.message.startsWith("required");
  return { findings: groupFindings(findings.filter((f) => !explained(f))) };
}

function syntaxFinding(body: string, file: string, error: unknown): Finding {
  const ours = findJsonSyntaxError(body);
  const native = error instanceof Error ? error.message : String(error);
  const offset = ours?.offset ?? nativeOffset(native, body) ?? 0;
  const { line, column } = lineColumnAt(body, offset);
  return {
    severity: "error",
    code: "json-syntax",
    file,
    location: `line ${line}, column ${column}`,
    message: `invalid JSON: ${ours?.message ?? native}`,
    hint: "fix the JSON syntax (no comments, no trailing commas, double-quoted strings)",
  };
}

// Used only if our scanner accepts text that JSON.parse rejects; Node 20 says "at position N", Node 22 adds line/column.
export function nativeOffset(message: string, body: string): number | undefined {
  const lineCol = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineCol) {
    const lines = body.split("\n").slice(0, Number(lineCol[1]) - 1);
    return lines.reduce((sum, l) => sum + l.length + 1, 0) + Number(lineCol[2]) - 1;
  }
  const position = /at position (\d+)/.exec(message);
  return position ? Number(position[1]) : undefined;
}

export function unreadable(file: string, error: unknown): Finding {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message =
    code === "ENOENT"
      ? "file not found"
      : code === "EISDIR"
        ? "is a folder, expected a JSON file"
        : code === "EACCES" || code === "EPERM"
          ? "permission denied"
          : `cannot read the file: ${error instanceof Error ? error.message : String(error)}`;
  return { severity: "error", code: code === "ENOENT" ? "file-missing" : "file-unreadable", file, message };
}
