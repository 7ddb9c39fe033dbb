import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import type { ToolPolicy } from "../agent.js";
import { insideRoots } from "./workspace-paths.js";

/** A client file-system request skillgym refuses: the agent gets an error, the run records why. */
export class FsRefusal extends Error {
  constructor(
    readonly what: "read" | "write",
    readonly target: string,
    readonly reason: string,
  ) {
    super(`skillgym refused to ${what} ${target}: ${reason}`);
    this.name = "FsRefusal";
  }
}

/** A file that is not there: ACP's "resource not found", which agents read as ENOENT. */
export class FsMissing extends Error {
  constructor(readonly target: string) {
    super(`Resource not found: ${target}`);
    this.name = "FsMissing";
  }
}

function checked(what: "read" | "write", path: string, roots: readonly string[]): string {
  if (typeof path !== "string" || path === "") throw new FsRefusal(what, String(path), "no path given");
  if (!isAbsolute(path)) throw new FsRefusal(what, path, "ACP file paths must be absolute");
  if (!insideRoots(path, roots)) throw new FsRefusal(what, path, "outside the workspace");
  return resolve(path);
}

/** `fs/read_text_file` inside the workspace only: the whole file, or `limit` lines from 1-based `line`. */
export async function readTextFile(
  params: { path: string; line?: number | null; limit?: number | null },
  roots: readonly string[],
): Promise<{ content: string }> {
  const path = checked("read", params.path, roots);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new FsMissing(path);
    throw error;
  }
  const lines = text.split("\n");
  const from = Math.max(0, (params.line ?? 1) - 1);
  const to = params.limit == null ? lines.length : from + Math.max(0, params.limit);
  return { content: lines.slice(from, to).join("\n") };
}

/** `fs/write_text_file` inside the workspace only (its folder made as needed); never in a read-only run. */
export async function writeTextFile(
  params: { path: string; content: string },
  roots: readonly string[],
  tools: ToolPolicy,
): Promise<Record<string, never>> {
  const path = checked("write", params.path, roots);
  if (tools === "read-only") throw new FsRefusal("write", path, "a read-only run may not write");
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, params.content, "utf8");
  return {};
}
