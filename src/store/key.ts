import { createHash } from "node:crypto";
import { readdir, readFile, readlink } from "node:fs/promises";
import { join, sep } from "node:path";

// The order of sorted keys and paths: by UTF-16 code units, the same on every machine and locale.
function byCodeUnits(a: string, b: string): number {
  // Stryker disable next-line EqualityOperator: equivalent, keys and paths are unique
  if (a < b) return -1;
  // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent, keys and paths are unique, and V8's sort asks only whether a result is below 0
  return a > b ? 1 : 0;
}

// Object keys sorted at every level, so the same parts always give the same text. An undefined part is left out
// as if not given: JSON.stringify skips it.
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => byCodeUnits(a, b))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/** The store key of everything that can change a run's outcome. */
export function storeKey(parts: Record<string, unknown>): string {
  return createHash("sha256")
    .update(JSON.stringify(canonical(parts)))
    .digest("hex");
}

export function hashBytes(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A folder's content: each file's path, length and bytes, each link's target, in a fixed order. */
export async function hashTree(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const items = entries
    .map((e) => ({
      e,
      rel: join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split(sep)
        .join("/"),
    }))
    .sort((a, b) => byCodeUnits(a.rel, b.rel));
  for (const { e, rel } of items) {
    const full = join(e.parentPath, e.name);
    if (e.isFile()) {
      const bytes = await readFile(full);
      hash.update(`f\0${rel}\0${bytes.length}\0`);
      hash.update(bytes);
    } else if (e.isSymbolicLink()) hash.update(`l\0${rel}\0${await readlink(full)}\0`);
    else if (e.isDirectory()) hash.update(`d\0${rel}\0`);
  }
  return hash.digest("hex");
}

/** The content of a file that may be absent (a sim script), as a hash; null when there is none. */
export async function hashFileIfAny(file: string | null | undefined): Promise<string | null> {
  if (!file) return null;
  try {
    return hashBytes(await readFile(file));
  } catch {
    return null;
  }
}
