import { readFile } from "node:fs/promises";
import { listOutputFiles } from "../runlog/output-files.js";

/** An output file as text a judge reads: its content, clipped, or a note that it is binary. */
export interface OutputText {
  path: string;
  content: string;
}

const MAX_FILE_CHARS = 20_000;
const MAX_FILES = 40;

function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/** The run's output files as the judge sees them: text clipped, binary files named only. */
export async function outputsForJudge(outputsDir: string): Promise<OutputText[]> {
  const found = await listOutputFiles(outputsDir);
  const files: OutputText[] = [];
  for (const { path, absolute } of found.slice(0, MAX_FILES)) {
    const bytes = await readFile(absolute);
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
  if (found.length > MAX_FILES)
    files.push({ path: "…", content: `(${found.length - MAX_FILES} more files not shown)` });
  return files;
}
