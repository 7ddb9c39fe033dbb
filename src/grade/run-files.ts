import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";

export interface OutputFile {
  path: string;
  content: string;
}

const MAX_FILE_CHARS = 20_000;
const MAX_FILES = 40;

function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/** The run's output files as the judge sees them: text clipped, binary files named only, metrics.json left out. */
export async function readOutputs(outputsDir: string): Promise<OutputFile[]> {
  let entries: string[];
  try {
    entries = (await readdir(outputsDir, { recursive: true, withFileTypes: true }))
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name));
  } catch {
    return [];
  }
  const files: OutputFile[] = [];
  for (const file of entries.sort().slice(0, MAX_FILES)) {
    const path = relative(outputsDir, file).split(sep).join("/");
    if (path === "metrics.json") continue;
    const bytes = await readFile(file);
    if (looksBinary(bytes)) {
      files.push({ path, content: `(binary file, ${bytes.length} bytes)` });
      continue;
    }
    const text = bytes.toString("utf8");
    files.push({
      path,
      content:
        text.length > MAX_FILE_CHARS
          ? `${text.slice(0, MAX_FILE_CHARS)}\n… (${text.length - MAX_FILE_CHARS} more characters)`
          : text,
    });
  }
  if (entries.length > MAX_FILES)
    files.push({ path: "…", content: `(${entries.length - MAX_FILES} more files not shown)` });
  return files;
}

export async function readTextIfPresent(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return "";
  }
}
