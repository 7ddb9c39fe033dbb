import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export async function writeTree(root, tree) {
  for (const [path, content] of Object.entries(tree)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content, "utf8");
  }
}

export async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), "skillgym-bench-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Samples this process's resident memory until stopped; returns the peak in MiB. */
export function memorySampler(intervalMs = 50) {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak / 1024 / 1024;
    },
  };
}

export const fmt = (n, digits = 2) => Number(n).toFixed(digits);
