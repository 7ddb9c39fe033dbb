import { lstat, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ownedTempPrefix, pidNamespace, startOf } from "../owned-temp.js";
import { errnoOf } from "../tree/fs-errors.js";

export type TempRootKind = "run" | "triggers" | "catalog" | "grade" | "judge" | "improve";

export interface TempRootOptions {
  /** Left alone by later sweeps (`--keep-workspaces`): the user wants to look inside. */
  keep?: boolean;
  /** Where the root is made; default: the system temp folder. */
  parent?: string;
}

// skillgym-<kind>.<owner pid>.<owner start>.<owner's PID namespace>-<mkdtemp suffix>: only names of this shape are ever
// swept (the sandbox's network folders, skillgym-net.*, are named so too). Names from before the namespace was
// recorded have none and are judged as this namespace's.
const ROOT_NAME = /^skillgym-([a-z]+)\.(\d+)\.(\d+)(?:\.(\d+))?-[A-Za-z0-9]{6}$/;
const KEEP_MARKER = ".skillgym-keep";

async function isKept(dir: string): Promise<boolean> {
  return lstat(join(dir, KEEP_MARKER)).then(
    () => true,
    () => false,
  );
}

function ownerAlive(pid: number, start: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errnoOf(error) === "EPERM";
  }
  const current = startOf(pid);
  if (current === undefined) return false;
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent on Linux, where startOf reads the real start time ("0" is other systems' answer)
  return start === "0" || current === "0" || current === start;
}

/** Creates a temp folder whose name records its owner process, after sweeping the folders of dead owners. */
export async function createTempRoot(kind: TempRootKind, options: TempRootOptions = {}): Promise<string> {
  const parent = options.parent ?? tmpdir();
  await sweepStaleTempRoots(parent);
  const dir = await mkdtemp(join(parent, ownedTempPrefix(kind)));
  if (options.keep) await writeFile(join(dir, KEEP_MARKER), "kept for inspection\n", "utf8");
  return dir;
}

/** Removes the temp roots of skillgym processes that died without cleaning up (e.g. killed with SIGKILL). */
export async function sweepStaleTempRoots(parent: string = tmpdir()): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const namespace = pidNamespace();
  for (const name of names) {
    const match = ROOT_NAME.exec(name);
    if (!match) continue;
    // An owner in another PID namespace (another container) cannot be judged from here: its PID means nothing here.
    const elsewhere = match[4] !== undefined && match[4] !== namespace;
    if (elsewhere || ownerAlive(Number(match[2]), match[3]!)) continue;
    const dir = join(parent, name);
    try {
      if (!(await lstat(dir)).isDirectory()) continue;
      if (await isKept(dir)) continue;
      // Stryker disable next-line BooleanLiteral: equivalent, the folder was just seen (force only spares a race with its owner)
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Another user's folder, or another skillgym sweeping the same one: not ours to insist on.
    }
  }
  return removed;
}
