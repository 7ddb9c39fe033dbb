import { readFile, stat } from "node:fs/promises";
import type { z } from "zod";

export type JsonRead<T> =
  | { state: "ok"; value: T }
  | { state: "missing" }
  | { state: "broken"; problem: string };

/** Reads run records (and the viewer's other JSON files) through a schema, remembering each by modification time and size: big workspaces re-read only what changed. */
export interface JsonCache {
  read<S extends z.ZodType>(file: string, schema: S): Promise<JsonRead<z.output<S>>>;
  /** Like `read`, but a missing or broken file is just absent. */
  value<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S> | undefined>;
}

interface Entry {
  stamp: string;
  parsed: unknown;
  results: WeakMap<z.ZodType, JsonRead<unknown>>;
}

export function createJsonCache(maxEntries = 5000): JsonCache {
  const entries = new Map<string, Entry>();

  async function load(file: string): Promise<Entry | "missing" | { problem: string }> {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return "missing";
    const stamp = `${info.mtimeMs}:${info.size}`;
    const cached = entries.get(file);
    if (cached?.stamp === stamp) return cached;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file, "utf8"));
    } catch (error) {
      return { problem: error instanceof SyntaxError ? `not valid JSON (${error.message})` : "unreadable" };
    }
    const entry: Entry = { stamp, parsed, results: new WeakMap() };
    entries.delete(file);
    entries.set(file, entry);
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    return entry;
  }

  async function read<S extends z.ZodType>(file: string, schema: S): Promise<JsonRead<z.output<S>>> {
    const entry = await load(file);
    if (entry === "missing") return { state: "missing" };
    if ("problem" in entry) return { state: "broken", problem: entry.problem };
    const known = entry.results.get(schema);
    if (known) return known as JsonRead<z.output<S>>;
    const checked = schema.safeParse(entry.parsed);
    const result: JsonRead<z.output<S>> = checked.success
      ? { state: "ok", value: checked.data }
      : {
          state: "broken",
          problem: checked.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.length ? issue.path.join(".") : "(top)"}: ${issue.message}`)
            .join("; "),
        };
    entry.results.set(schema, result);
    return result;
  }

  return {
    read,
    async value(file, schema) {
      const result = await read(file, schema);
      return result.state === "ok" ? result.value : undefined;
    },
  };
}
