import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { SkillgymError } from "../errors.js";
import { isExcluded } from "./exclusions.js";

export interface SkillFile {
  /** Path relative to the skill folder, `/`-separated and NFC-normalised, the same on every platform. */
  path: string;
  absolutePath: string;
  executable: boolean;
}

// Files of a skill folder minus the exclusions, sorted by code unit so the order never depends on locale or OS.
export async function listSkillFiles(dir: string): Promise<SkillFile[]> {
  const files: SkillFile[] = [];
  const visited = new Set<string>();
  await walk(dir, "", files, visited);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function readSkillFile(file: SkillFile): Promise<Buffer> {
  return guard(file.absolutePath, () => readFile(file.absolutePath));
}

async function walk(dir: string, prefix: string, files: SkillFile[], visited: Set<string>): Promise<void> {
  const real = await guard(dir, () => realpath(dir));
  if (visited.has(real)) return;
  visited.add(real);
  const entries = await guard(dir, () => readdir(dir, { withFileTypes: true }));
  for (const entry of entries) {
    const path = `${prefix}${entry.name.normalize("NFC")}`;
    if (isExcluded(path)) continue;
    const absolutePath = join(dir, entry.name);
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    let mode = 0;
    if (isFile || entry.isSymbolicLink()) {
      const info = await stat(absolutePath).catch(() => undefined);
      // A dangling symlink has nothing to hash or package.
      if (!info) continue;
      isDirectory = info.isDirectory();
      isFile = info.isFile();
      mode = info.mode;
    }
    if (isDirectory) await walk(absolutePath, `${path}/`, files, visited);
    else if (isFile) files.push({ path, absolutePath, executable: (mode & 0o111) !== 0 });
  }
}

async function guard<T>(path: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new SkillgymError("BAD_INPUT", `cannot read ${path} (${code})`, {
      file: path,
      hint: "check that the skill folder exists and is readable",
      cause: error,
    });
  }
}
