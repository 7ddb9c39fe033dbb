// A validation finding: where it is (file plus a line or a JSON path), what is wrong, and how to fix it.
export type Severity = "error" | "warning";

export interface Finding {
  severity: Severity;
  /** Stable machine-readable code, e.g. `name-mismatch`, `json-syntax`. */
  code: string;
  file: string;
  /** `line 3`, `line 4, column 7`, or a JSON path such as `evals[3].prompt`. */
  location?: string;
  message: string;
  hint?: string;
}

export function errorsOf(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.severity === "error");
}

export function warningsOf(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.severity === "warning");
}

export function formatFinding(f: Finding): string {
  const where = f.location ? `${f.file}: ${f.location}` : f.file;
  const hint = f.hint ? `\n    fix: ${f.hint}` : "";
  return `${f.severity}: ${where}: ${f.message}${hint}`;
}
