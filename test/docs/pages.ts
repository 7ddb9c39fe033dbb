import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "../..");

export interface Page {
  /** Relative to the repository, with forward slashes: "README.md", "docs/agents.md". */
  path: string;
  text: string;
}

/** The README and every Markdown page under docs/. */
export function docPages(): Page[] {
  const docs = (readdirSync(join(root, "docs"), { recursive: true }) as string[])
    .map((name) => `docs/${name.split("\\").join("/")}`)
    .filter((path) => path.endsWith(".md"))
    .sort();
  return ["README.md", ...docs].map((path) => ({ path, text: readFileSync(join(root, path), "utf8") }));
}
