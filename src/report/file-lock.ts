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
    // Stryker disable next-line EqualityOperator: equivalent, a lock exactly staleMs old is a tie within the clock's resolution
    return Date.now() - (await stat(lock)).mtimeMs > staleMs;
  } catch {}
  // Stryker disable next-line BooleanLiteral: reached only when the lock vanished since the open failed; the next try takes it either way
  return false;
}

async function acquire(lock: string, token: string, options: Required<FileLockOptions>): Promise<void> {
  const deadline = Date.now() + options.waitMs;
  // Stryker disable next-line ArithmeticOperator,MethodExpression: the backoff's length changes only how long a waiter sleeps
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
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: reached only when another process breaks the same lock between two calls
      await rm(lock, { force: true });
      continue;
    }
    // Stryker disable next-line EqualityOperator: equivalent, a tie with the deadline is within the clock's resolution
    if (Date.now() > deadline)
      throw new FileLockTimeout(`${lock} is held by another process; remove it if no skillgym is running`);
    // Stryker disable next-line ArithmeticOperator: the jitter changes only how long a waiter sleeps
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
    // Stryker disable next-line StringLiteral: equivalent, no fallback text holds this run's random token
    const held = await readFile(lock, "utf8").catch(() => "");
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: reached only when another process removes the lock between the read and this call
    if (held.includes(token)) await rm(lock, { force: true });
  }
}
