import { createHash } from "node:crypto";

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, stable(v)]),
    );
  }
  return value;
}

/** The hash of a plan's defining parts, independent of key order; shards of one plan share it. */
export function planHash(parts: Record<string, unknown>): string {
  return createHash("sha256")
    .update(JSON.stringify(stable(parts)))
    .digest("hex")
    .slice(0, 16);
}
