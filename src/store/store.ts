import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { type ReusedFrom, STORE_FORMAT, StoreEntry } from "../contracts/store-entry.js";
import { jsonText } from "../runlog/atomic-write.js";
import { hashBytes } from "./key.js";

export type StoreKind = StoreEntry["kind"];

/** Where the store is and whether it is read (`--fresh` only writes). */
export interface StoreSettings {
  /** Default `<workspace>/.skillgym-cache/` (`--cache DIR`). */
  dir: string;
  /** Reads nothing from the store; what runs now is still written to it. */
  fresh?: boolean;
}

/** A stored run that checked out whole: its record and the folder holding its files. */
export interface StoredRun {
  entry: StoreEntry;
  filesDir: string;
}

export interface ResultStore {
  readonly dir: string;
  readonly reads: boolean;
  get(kind: StoreKind, key: string): Promise<StoredRun | undefined>;
  put(
    kind: StoreKind,
    key: string,
    run: { runDir: string; source: ReusedFrom; gradingKey?: string },
  ): Promise<void>;
}

const entryDir = (root: string, kind: StoreKind, key: string) =>
  join(root, `v${STORE_FORMAT}`, kind, key.slice(0, 2), key);

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split(sep)
        .join("/"),
    )
    .sort();
}

// An entry is trusted only when its record parses, is of this format, names this key, and every file it lists is
// there with the recorded length and bytes: a truncated or half-deleted entry is treated as absent.
async function readEntry(dir: string, kind: StoreKind, key: string): Promise<StoredRun | undefined> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, "entry.json"), "utf8"));
    // An entry with no readable record fails the schema below.
  } catch {}
  const parsed = StoreEntry.safeParse(raw);
  if (!parsed.success || parsed.data.key !== key || parsed.data.kind !== kind) return undefined;
  const filesDir = join(dir, "run");
  for (const file of parsed.data.files) {
    try {
      const bytes = await readFile(join(filesDir, file.path));
      // The SHA-256 tells a file of another length too.
      if (hashBytes(bytes) !== file.sha256) return undefined;
    } catch {
      return undefined;
    }
  }
  return { entry: parsed.data, filesDir };
}

// The place holds something: a folder (another writer's entry, or a damaged one), or a file (damaged).
const TAKEN = new Set(["EEXIST", "ENOTEMPTY", "ENOTDIR", "EPERM", "EACCES", "EBUSY"]);

async function renameIfFree(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    // Stryker disable next-line StringLiteral: equivalent, an error without a code is in no set
    if (TAKEN.has((error as NodeJS.ErrnoException).code ?? "")) return false;
    throw error;
  }
}

/**
 * The result store: each finished run kept under the hash of everything that can change it. An entry is written
 * whole in a temporary folder, then renamed into place, so no reader (another process included) ever sees half of
 * one; when two writers race, the first rename wins and the other's copy is dropped.
 */
export function openStore(settings: StoreSettings): ResultStore {
  const root = settings.dir;
  const tmp = join(root, "tmp");
  return {
    dir: root,
    reads: settings.fresh !== true,
    async get(kind, key) {
      if (settings.fresh) return undefined;
      return readEntry(entryDir(root, kind, key), kind, key);
    },
    async put(kind, key, run) {
      const final = entryDir(root, kind, key);
      const staging = join(tmp, `${key}.${process.pid}.${randomUUID()}`);
      try {
        const files = [];
        for (const path of await listFiles(run.runDir)) {
          const bytes = await readFile(join(run.runDir, path));
          await mkdir(dirname(join(staging, "run", path)), { recursive: true });
          await writeFile(join(staging, "run", path), bytes);
          files.push({ path, size: bytes.length, sha256: hashBytes(bytes) });
        }
        const entry: StoreEntry = {
          format: STORE_FORMAT,
          kind,
          key,
          created_at: new Date().toISOString(),
          source: run.source,
          ...(run.gradingKey ? { grading_key: run.gradingKey } : {}),
          files,
        };
        await mkdir(staging, { recursive: true });
        await writeFile(join(staging, "entry.json"), jsonText(entry), "utf8");
        await mkdir(dirname(final), { recursive: true });
        if (await renameIfFree(staging, final)) return;
        // The place is taken: by a good entry (another writer won; ours is dropped) or by a damaged one (replaced).
        if (await readEntry(final, kind, key)) return;
        const aside = join(tmp, `damaged.${process.pid}.${randomUUID()}`);
        if (await renameIfFree(final, aside)) {
          await rm(aside, { recursive: true });
          await renameIfFree(staging, final);
        }
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    },
  };
}

/** Copies a stored run's files into a run folder of the iteration, replacing whatever was there. */
export async function copyStoredRun(
  stored: StoredRun,
  runDir: string,
  leaveOut: (path: string) => boolean = () => false,
): Promise<void> {
  await rm(runDir, { recursive: true, force: true });
  await mkdir(runDir, { recursive: true });
  for (const file of stored.entry.files) {
    if (leaveOut(file.path)) continue;
    const target = join(runDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, await readFile(join(stored.filesDir, file.path)));
  }
}
