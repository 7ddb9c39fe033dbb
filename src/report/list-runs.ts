import { readdir } from "node:fs/promises";
import { join } from "node:path";

export interface RunRef {
  /** `eval-<id>/<configuration>/run-<k>` */
  id: string;
  evalDir: string;
  configuration: string;
  runNumber: number;
}

const SAFE_NAME = /^[^/\\\0]+$/;
const RUN = /^run-(\d+)$/;

async function childDirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && SAFE_NAME.test(e.name)).map((e) => e.name);
  } catch {
    return [];
  }
}

const byName = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

// with_skill first, then the baselines, then any other tool's configuration names.
const configurationOrder = ["with_skill", "old_skill", "without_skill"];
function byConfiguration(a: string, b: string): number {
  const rank = (c: string) => {
    const i = configurationOrder.indexOf(c);
    return i === -1 ? configurationOrder.length : i;
  };
  return rank(a) - rank(b) || byName(a, b);
}

/** The run-<k> folders of one eval's configuration, by run number. */
export async function runFolders(configurationDir: string): Promise<{ name: string; runNumber: number }[]> {
  return (await childDirs(configurationDir))
    .flatMap((name) => {
      const match = RUN.exec(name);
      return match ? [{ name, runNumber: Number(match[1]) }] : [];
    })
    .sort((a, b) => a.runNumber - b.runNumber);
}

/** Every run folder of an iteration, in eval, configuration, run order: the folders are the truth, not any summary. */
export async function listRuns(iterationDir: string): Promise<RunRef[]> {
  const evalDirs = (await childDirs(iterationDir)).filter((name) => name.startsWith("eval-")).sort(byName);
  const perEval = await Promise.all(
    evalDirs.map(async (evalDir) => {
      const found: RunRef[] = [];
      const configurations = (await childDirs(join(iterationDir, evalDir))).sort(byConfiguration);
      for (const configuration of configurations) {
        for (const { name, runNumber } of await runFolders(join(iterationDir, evalDir, configuration))) {
          found.push({ id: `${evalDir}/${configuration}/${name}`, evalDir, configuration, runNumber });
        }
      }
      return found;
    }),
  );
  return perEval.flat();
}

export function runIdOf(id: string): string {
  return id.replaceAll("/", "-");
}

/** Splits a run id from a request into its parts; undefined unless it has exactly the run folder's shape. */
export function parseRunId(id: string): RunRef | undefined {
  const parts = id.split("/");
  if (parts.length !== 3) return undefined;
  const [evalDir, configuration, run] = parts as [string, string, string];
  const match = RUN.exec(run);
  if (!match || !evalDir.startsWith("eval-")) return undefined;
  if (![evalDir, configuration].every((p) => SAFE_NAME.test(p) && p !== "." && p !== "..")) return undefined;
  return { id, evalDir, configuration, runNumber: Number(match[1]) };
}
