import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { DiffReport } from "../contracts/diff.js";
import { writeJson, writeTextAtomically } from "../runlog/atomic-write.js";
import { renderDiffMarkdown } from "./render-markdown.js";

/** Writes diff.json and diff.md into `outDir` (default: iteration B's folder), making `outDir` when it is missing. */
export async function writeDiff(
  report: DiffReport,
  outDir?: string,
): Promise<{ jsonPath: string; mdPath: string; markdown: string }> {
  const dir = resolve(outDir ?? report.b);
  const markdown = renderDiffMarkdown(report);
  const jsonPath = join(dir, "diff.json");
  const mdPath = join(dir, "diff.md");
  if (outDir !== undefined) await mkdir(dir, { recursive: true });
  await writeJson(jsonPath, report);
  await writeTextAtomically(mdPath, markdown);
  return { jsonPath, mdPath, markdown };
}
