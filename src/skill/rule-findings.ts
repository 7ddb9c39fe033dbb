import type { Finding } from "../findings.js";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Map);
}

export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "list";
  if (typeof value === "object") return "map";
  return typeof value;
}

export function typeError(
  file: string,
  code: string,
  location: string | undefined,
  key: string,
  expected: string,
  value: unknown,
): Finding {
  return error(file, code, location, `\`${key}\` must be ${expected}, not ${describeType(value)}`, {
    hint:
      typeof value === "number" || typeof value === "boolean"
        ? "quote the value"
        : `write \`${key}\` as ${expected}`,
  });
}

export function error(
  file: string,
  code: string,
  location: string | undefined,
  message: string,
  extra: { hint?: string } = {},
): Finding {
  return finding("error", file, code, location, message, extra.hint);
}

export function warning(
  file: string,
  code: string,
  location: string | undefined,
  message: string,
  extra: { hint?: string } = {},
): Finding {
  return finding("warning", file, code, location, message, extra.hint);
}

function finding(
  severity: Finding["severity"],
  file: string,
  code: string,
  location: string | undefined,
  message: string,
  hint: string | undefined,
): Finding {
  return {
    severity,
    code,
    file,
    message,
    ...(location === undefined ? {} : { location }),
    ...(hint === undefined ? {} : { hint }),
  };
}
