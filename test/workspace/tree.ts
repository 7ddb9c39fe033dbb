import { createHash } from "node:crypto";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";

export type TreeSpec = Record<string, string | Uint8Array>;

export async function makeTempDir(label: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `skillgym-${label}-`));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Writes files given by POSIX paths relative to `root`; a key ending in `/` makes an empty folder. */
export async function writeTree(root: string, spec: TreeSpec): Promise<void> {
  for (const [rel, content] of Object.entries(spec)) {
    const abs = path.join(root, ...rel.split("/"));
    if (rel.endsWith("/")) {
      await mkdir(abs, { recursive: true });
      continue;
    }
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
}

/** Relative POSIX paths of every file (and link) under `root`, sorted; folders end in `/` only when empty. */
export async function listTree(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string, rel: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    if (entries.length === 0 && rel !== "") out.push(`${rel}/`);
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), childRel);
      else out.push(childRel);
    }
  }
  await walk(root, "");
  return out.sort();
}

export async function readText(root: string, rel: string): Promise<string> {
  return readFile(path.join(root, ...rel.split("/")), "utf8");
}

// Independent of the code under test: every entry's path, type, mode and content (or link target).
export async function fingerprintTree(root: string): Promise<string> {
  const hash = createHash("sha256");
  async function walk(dir: string, rel: string): Promise<void> {
    const entries = (await readdir(dir)).sort();
    for (const name of entries) {
      const abs = path.join(dir, name);
      const childRel = `${rel}/${name}`;
      const info = await lstat(abs);
      hash.update(`${childRel}\0${info.mode}\0${info.size}\0`);
      if (info.isDirectory()) await walk(abs, childRel);
      else if (info.isSymbolicLink()) hash.update(await readlink(abs));
      else hash.update(await readFile(abs));
    }
  }
  await walk(root, "");
  return hash.digest("hex");
}
