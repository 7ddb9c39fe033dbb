import { evalFields, evalsFileFields, triggerQueryFields } from "../contracts/evals.js";
import type { Finding } from "../findings.js";
import { groupFindings } from "./group-findings.js";
import { likelyMeant } from "./key-typos.js";
import { jsonPath, type Path } from "./schema-issues.js";

export interface InputRulesResult {
  findings: Finding[];
  /** JSON paths of fields a misspelling stands for, whose "required" errors would only repeat it. */
  misspelled: Set<string>;
}

// Rules on the file as written, before the schema reads it: unknown keys, evals nothing grades, sentences under `checks`.
export function evalsInputRules(data: unknown, file: string): InputRulesResult {
  const keys = new UnknownKeys(file);
  const findings: Finding[] = [];
  if (!isObject(data)) return { findings: [], misspelled: new Set() };
  keys.check(data, [], evalsFileFields, "the evals file");
  if (Array.isArray(data.evals)) {
    data.evals.forEach((entry: unknown, i) => {
      if (!isObject(entry)) return;
      keys.check(entry, ["evals", i], evalFields, "an eval");
      findings.push(...gradingRules(entry, i, file));
    });
  }
  return {
    findings: [...keys.errors, ...groupFindings(findings), ...keys.warnings()],
    misspelled: keys.misspelled,
  };
}

export function triggersInputRules(data: unknown, file: string): InputRulesResult {
  const keys = new UnknownKeys(file);
  if (Array.isArray(data)) {
    data.forEach((entry: unknown, i) => {
      if (isObject(entry)) keys.check(entry, [i], triggerQueryFields, "a trigger query");
    });
  }
  return { findings: [...keys.errors, ...keys.warnings()], misspelled: keys.misspelled };
}

function gradingRules(entry: Record<string, unknown>, i: number, file: string): Finding[] {
  const findings: Finding[] = [];
  const checks = Array.isArray(entry.checks) ? entry.checks : [];
  checks.forEach((check: unknown, j) => {
    if (typeof check !== "string") return;
    findings.push({
      severity: "warning",
      code: "checks-as-expectations",
      file,
      location: `evals[${i}].checks[${j}]`,
      message: "a plain statement under `checks`; read as an expectation, graded by the judge",
      hint: 'move plain statements to `expectations`; `checks` holds typed checks such as {"type": "file_exists", "path": "out.txt"}',
    });
  });
  const statements = [entry.expectations, entry.assertions, entry.checks];
  if (statements.every((list) => list === undefined || (Array.isArray(list) && list.length === 0))) {
    findings.push({
      severity: "warning",
      code: "eval-ungraded",
      file,
      location: `evals[${i}]`,
      message: "nothing grades this eval: it has no expectations, assertions or checks",
      hint: 'add "expectations": ["…"] (or "assertions") with statements the judge grades, or "checks": [{"type": "file_exists", "path": "…"}] graded without a model',
    });
  }
  return findings;
}

class UnknownKeys {
  readonly errors: Finding[] = [];
  readonly misspelled = new Set<string>();
  private readonly ignored = new Map<string, string[]>();

  constructor(private readonly file: string) {}

  check(value: Record<string, unknown>, at: Path, known: readonly string[], what: string): void {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const meant = likelyMeant(key, known);
      if (meant === undefined) {
        const places = this.ignored.get(key) ?? [];
        places.push(jsonPath(at) ?? "top level");
        this.ignored.set(key, places);
        continue;
      }
      const location = jsonPath([...at, key]);
      this.misspelled.add(jsonPath([...at, meant]) ?? meant);
      this.errors.push({
        severity: "error",
        code: "misspelled-field",
        file: this.file,
        // Stryker disable next-line ConditionalExpression: equivalent, the path ends with the key, so it always has a location
        ...(location === undefined ? {} : { location }),
        message: `\`${key}\` is not a field of ${what}; did you mean \`${meant}\`?`,
        hint: `rename \`${key}\` to \`${meant}\``,
      });
    }
  }

  // One warning a file, however many entries carry the same extra keys.
  warnings(): Finding[] {
    if (this.ignored.size === 0) return [];
    const listed = [...this.ignored].map(([key, places]) => `\`${key}\` (${describePlaces(places)})`);
    return [
      {
        severity: "warning",
        code: "unknown-fields",
        file: this.file,
        message: `fields skillgym does not read, ignored: ${listed.join(", ")}`,
        hint: "fine if they are notes for people; otherwise check the field names against the evals.json format",
      },
    ];
  }
}

function describePlaces(places: readonly string[]): string {
  const shown = places.slice(0, 3).join(", ");
  return places.length > 3 ? `${shown} and ${places.length - 3} more` : shown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
