import { readdir } from "node:fs/promises";

/** How many file descriptors this process holds open (Linux: the entries of /proc/self/fd). */
export async function openFileCount(): Promise<number> {
  return (await readdir("/proc/self/fd")).length;
}

/** Names given in an order that is neither sorted nor reverse sorted, so a listing's own order shows through. */
export const SCRAMBLED_NAMES: readonly string[] = [
  "m.txt",
  "c.txt",
  "x.txt",
  "a.txt",
  "q.txt",
  "h.txt",
  "z.txt",
  "b.txt",
  "t.txt",
  "e.txt",
  "k.txt",
  "w.txt",
  "d.txt",
  "r.txt",
  "g.txt",
  "u.txt",
];
