import { randomUUID } from "node:crypto";
import { link, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The one JSON formatting of every file skillgym writes: two-space indent, a final newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function tempNameFor(file: string): string {
  return `${file}.${process.pid}.${randomUUID()}.tmp`;
}

/** Writes a file aside, then renames it into place, so an interrupted write never leaves half a file. */
export async function writeTextAtomically(file: string, text: string): Promise<void> {
  const temp = tempNameFor(file);
  try {
    await writeFile(temp, text, "utf8");
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await writeTextAtomically(file, jsonText(value));
}

/**
 * Writes `text` under the first of `files` that does not exist yet, and returns it (undefined when all are taken).
 * The text is written aside and hard-linked into place: the link fails if the name is taken, so two writers at
 * once never get the same name, and no one ever sees half a file.
 */
export async function writeUnderFreeName(
  dir: string,
  text: string,
  files: Iterable<string>,
): Promise<string | undefined> {
  const temp = tempNameFor(join(dir, ".new"));
  await writeFile(temp, text, "utf8");
  try {
    for (const file of files) {
      if (await linkIfFree(temp, file)) return file;
    }
    return undefined;
  } finally {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, the file was written just above, so it is there to remove
    await rm(temp, { force: true });
  }
}

async function linkIfFree(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

export async function readJsonIfPresent(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch {}
  return undefined;
}

export async function readTextIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch {}
  return undefined;
}
