import { expect } from "vitest";

type Listener = (...args: unknown[]) => void;

/**
 * Runs a command in this process and presses Ctrl-C once as soon as it listens for it: the SIGINT handler the command
 * added is called directly, no signal is sent to the process. Resolves to what the command returned.
 */
export async function interrupted<T>(start: () => Promise<T>): Promise<T> {
  const before = process.listeners("SIGINT") as Listener[];
  const running = start();
  const added = () => (process.listeners("SIGINT") as Listener[]).filter((l) => !before.includes(l));
  await expect.poll(() => added().length, { timeout: 5000, interval: 5 }).toBe(1);
  added()[0]?.("SIGINT");
  return running;
}
