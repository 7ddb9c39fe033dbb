import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export type FolderFiles = Record<string, string | Uint8Array>;

export interface TempRoot {
  root: string;
  /** Writes `files` (paths relative to `<root>/<folder>`) and returns the folder's path. */
  skill(folder: string, files: FolderFiles): Promise<string>;
  cleanup(): Promise<void>;
}

export async function tempRoot(): Promise<TempRoot> {
  const root = await mkdtemp(join(tmpdir(), "skillgym-skill-"));
  return {
    root,
    async skill(folder, files) {
      const dir = join(root, folder);
      await mkdir(dir, { recursive: true });
      for (const [path, content] of Object.entries(files)) {
        const target = join(dir, ...path.split("/"));
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, content);
        if (path.startsWith("scripts/") && path.endsWith(".sh")) await chmod(target, 0o755);
      }
      return dir;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export function skillMd(frontmatter: string, body = "# Instructions\n\nDo the thing.\n"): string {
  return `---\n${frontmatter.trim()}\n---\n${body}`;
}

export const GOOD_DESCRIPTION =
  "Rotates PDF pages. Use when the user asks to rotate or reorder pages of a PDF.";
