import type { z } from "zod";
import { checkTypes } from "../contracts/checks.js";
import { hintFor } from "./schema-hints.js";

export interface DescribedIssue {
  /** A JSON path such as `evals[3].prompt` or `[2].should_trigger`; undefined for the top level. */
  location: string | undefined;
  message: string;
  hint: string;
}

export type Path = readonly PropertyKey[];

export function jsonPath(path: Path): string | undefined {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else {
      const name = String(key);
      if (/^[A-Za-z_$][\w$]*$/.test(name)) out += out === "" ? name : `.${name}`;
      else out += `[${JSON.stringify(name)}]`;
    }
  }
  return out === "" ? undefined : out;
}

// zod's own messages say "received undefined" for a missing field; authors want "required" and the real value.
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): DescribedIssue[] {
  const inner = unwrapUnion(issue, valueAt(input, issue.path));
  if (inner) return inner.flatMap((i) => describeIssue(i, input));
  const value = valueAt(input, issue.path);
  const message = messageFor(issue, value);
  return [{ location: jsonPath(issue.path), message, hint: hintFor(issue, value, message) }];
}

// An object or array that fails a "sentence or object" union failed as the object (or the list): report that
// branch's own errors.
function unwrapUnion(issue: z.core.$ZodIssue, value: unknown): z.core.$ZodIssue[] | undefined {
  // A discriminator's issue has no branches to unwrap: `errors` is empty.
  if (issue.code !== "invalid_union" || isStatementEntry(issue.path)) return undefined;
  if (value === null || typeof value !== "object") return undefined;
  const objectBranches = issue.errors.filter(
    // Stryker disable next-line MethodExpression: equivalent, zod reports a branch that fails its type with that one issue alone
    (branch) => !branch.every((i) => i.code === "invalid_type" && i.path.length === 0),
  );
  const [only] = objectBranches;
  if (objectBranches.length !== 1 || only === undefined) return undefined;
  return only.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as z.core.$ZodIssue);
}

/** `expectations[3]` or `assertions[3]`: one statement to grade. */
export function isStatementEntry(path: Path): boolean {
  const parent = path[path.length - 2];
  return typeof path[path.length - 1] === "number" && (parent === "expectations" || parent === "assertions");
}

function messageFor(issue: z.core.$ZodIssue, value: unknown): string {
  if (isStatementEntry(issue.path) && issue.code === "invalid_union") {
    return `expected a sentence or {"text": …}, got ${describeValue(value)}`;
  }
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `required (${typeName(issue.expected)})`;
      return `expected ${typeName(issue.expected)}, got ${describeValue(value)}`;
    case "invalid_union":
      return unionMessage(issue, value);
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${describeValue(value)}`;
    case "too_small":
      return sizeMessage(issue.origin, "at least", issue.minimum, issue.inclusive, value);
    case "too_big":
      return sizeMessage(issue.origin, "at most", issue.maximum, issue.inclusive, value);
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    default:
      return issue.message;
  }
}

function unionMessage(issue: z.core.$ZodIssueInvalidUnion, value: unknown): string {
  if (issue.discriminator !== undefined) {
    const isCheck = issue.discriminator === "type" && issue.path.includes("checks");
    // Stryker disable next-line ArrayDeclaration: equivalent, zod gives every discriminator issue its options
    const options = "options" in issue ? (issue.options ?? []) : [];
    const list = (isCheck ? [...checkTypes] : options.map(String)).join(", ");
    if (value === undefined) return `required; one of: ${list}`;
    const what = isCheck ? "unknown check type" : `unknown ${issue.discriminator}`;
    return `${what} ${describeValue(value)}; allowed: ${list}`;
  }
  // A union of plain types (an eval id is an integer or a string): name every accepted type.
  const expected: string[] = [];
  for (const branch of issue.errors) {
    const first = branch[0];
    // zod reports a branch that fails its type with that one issue alone: its first issue tells.
    if (first === undefined || first.code !== "invalid_type" || first.path.length > 0) {
      return issue.message;
    }
    expected.push(typeName(first.expected));
  }
  if (expected.length === 0) return issue.message;
  if (value === undefined) return `required (${expected.join(" or ")})`;
  return `expected ${expected.join(" or ")}, got ${describeValue(value)}`;
}

function sizeMessage(
  origin: string,
  bound: "at least" | "at most",
  limit: number | bigint,
  inclusive: boolean | undefined,
  value: unknown,
): string {
  const n = Number(limit);
  if (origin === "string") {
    // zod bounds lengths and sizes inclusively: only numbers have exclusive bounds.
    if (bound === "at least" && n === 1) return "must not be empty";
    return `must have ${bound} ${n} character${n === 1 ? "" : "s"}`;
  }
  if (origin === "array" || origin === "set") {
    if (bound === "at least" && n === 1) return "must not be empty";
    return `must have ${bound} ${n} item${n === 1 ? "" : "s"}`;
  }
  const op = bound === "at least" ? (inclusive === false ? ">" : ">=") : inclusive === false ? "<" : "<=";
  return `must be ${op} ${n}, got ${describeValue(value)}`;
}

function typeName(expected: string): string {
  if (expected === "int") return "integer";
  return expected;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "string": {
      const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
      return `string ${JSON.stringify(shown)}`;
    }
    case "number":
    case "boolean":
      return `${typeof value} ${String(value)}`;
    default:
      return typeof value;
  }
}

function valueAt(input: unknown, path: Path): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
