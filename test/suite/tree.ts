import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** File contents by relative path: strings are written as is, anything else as JSON; a trailing "/" makes a folder. */
export type Tree = Record<string, unknown>;

export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, content] of Object.entries(tree)) {
    const full = join(root, path);
    if (path.endsWith("/")) {
      await mkdir(full, { recursive: true });
      continue;
    }
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
}

export async function tempDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), "skillgym-suite-"));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
