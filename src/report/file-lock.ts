import { randomUUID } from "node:crypto";
import { open, readFile, rm, stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

export interface FileLockOptions {
  /** A lock file older than this was left by a process that died holding it. */
  staleMs?: number;
  /** Give up waiting after this long (longer than `staleMs`, so a stale lock is always broken first). */
  waitMs?: number;
}

/** The lock file is held by someone else for longer than we wait. */
export class FileLockTimeout extends Error {
  override readonly name = "FileLockTimeout";
}

async function isStale(lock: string, staleMs: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(lock)).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

async function acquire(lock: string, token: string, options: Required<FileLockOptions>): Promise<void> {
  const deadline = Date.now() + options.waitMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      const handle = await open(lock, "wx");
      try {
        await handle.writeFile(`${process.pid} ${token}\n`, "utf8");
      } finally {
        await handle.close();
      }
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (await isStale(lock, options.staleMs)) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new FileLockTimeout(`${lock} is held by another process; remove it if no skillgym is running`);
    await sleep(delay + Math.random() * delay);
  }
}

/**
 * Runs `work` holding `<file>.lock`, an exclusive lock file shared by every process (another `skillgym view`
 * on the same folder): created with O_EXCL, retried with a short backoff, broken when stale.
 */
export async function withFileLock<T>(
  file: string,
  work: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lock = `${file}.lock`;
  const token = randomUUID();
  const staleMs = options.staleMs ?? 10_000;
  await acquire(lock, token, { staleMs, waitMs: options.waitMs ?? staleMs + 5_000 });
  try {
    return await work();
  } finally {
    // Only our own lock is removed: one broken as stale may already be someone else's.
    const held = await readFile(lock, "utf8").catch(() => "");
    if (held.includes(token)) await rm(lock, { force: true });
  }
}
