import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { isEvalDirName, iterationNumberOf, runNumberOf } from "./layout.js";

/** One run folder of an iteration. */
export interface RunRef {
  /** `eval-<id>/<configuration>/run-<k>` */
  id: string;
  evalDir: string;
  configuration: string;
  runNumber: number;
}

const SAFE_NAME = /^[^/\\\0]+$/;

async function childDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && SAFE_NAME.test(e.name)).map((e) => e.name);
}

async function childDirsIfAny(dir: string): Promise<string[]> {
  return childDirs(dir).catch(() => []);
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

/** The iteration numbers of a workspace's `iteration-<N>` folders, lowest first; none when it does not exist. */
export async function iterationNumbers(workspace: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(workspace);
  } catch {
    return [];
  }
  return names
    .map(iterationNumberOf)
    .filter((n): n is number => n !== undefined)
    .sort((a, b) => a - b);
}

/** The `eval-<id>` folders of an iteration, unsorted; rejects when the iteration folder cannot be read. */
export async function evalFolders(iterationDir: string): Promise<string[]> {
  return (await childDirs(iterationDir)).filter(isEvalDirName);
}

/** The configuration folders of one eval folder, with_skill first; none when it cannot be read. */
export async function configurationFolders(evalDir: string): Promise<string[]> {
  return (await childDirsIfAny(evalDir)).sort(byConfiguration);
}

/** The run-<k> folders of one eval's configuration, by run number. */
export async function runFolders(configurationDir: string): Promise<{ name: string; runNumber: number }[]> {
  return (await childDirsIfAny(configurationDir))
    .flatMap((name) => {
      const runNumber = runNumberOf(name);
      return runNumber === undefined ? [] : [{ name, runNumber }];
    })
    .sort((a, b) => a.runNumber - b.runNumber);
}

/** Every run folder of an iteration, in eval, configuration, run order: the folders are the truth, not any summary. */
export async function listRuns(iterationDir: string): Promise<RunRef[]> {
  // Stryker disable next-line ArrayDeclaration: equivalent, an eval folder in an iteration folder that is not there has no runs either
  const evalDirs = (await evalFolders(iterationDir).catch(() => [])).sort(byName);
  const perEval = await Promise.all(
    evalDirs.map(async (evalDir) => {
      const found: RunRef[] = [];
      for (const configuration of await configurationFolders(join(iterationDir, evalDir))) {
        for (const { name, runNumber } of await runFolders(join(iterationDir, evalDir, configuration))) {
          found.push({ id: `${evalDir}/${configuration}/${name}`, evalDir, configuration, runNumber });
        }
      }
      return found;
    }),
  );
  return perEval.flat();
}

/** A run's id with no slashes, as feedback.json and the viewer's URLs name it. */
export function runIdOf(id: string): string {
  return id.replaceAll("/", "-");
}

/** Splits a run id from a request into its parts; undefined unless it has exactly the run folder's shape. */
export function parseRunId(id: string): RunRef | undefined {
  const parts = id.split("/");
  if (parts.length !== 3) return undefined;
  const [evalDir, configuration, run] = parts as [string, string, string];
  const runNumber = runNumberOf(run);
  if (runNumber === undefined || !isEvalDirName(evalDir)) return undefined;
  if (![evalDir, configuration].every((p) => SAFE_NAME.test(p) && p !== "." && p !== "..")) return undefined;
  return { id, evalDir, configuration, runNumber };
}

/** The trigger runs under a `triggers/` folder, as `query-<n>/run-<k>`, sorted. */
export async function triggerRunFolders(triggersDir: string): Promise<string[]> {
  const found: string[] = [];
  // Stryker disable next-line ArrayDeclaration: equivalent, a made-up name fails the query-<n> filter
  const queries = (await readdir(triggersDir).catch(() => [])).filter((n) => /^query-\d+$/.test(n));
  for (const query of queries) {
    // Stryker disable next-line ArrayDeclaration: equivalent, a made-up name fails the run-<k> test below
    for (const run of await readdir(join(triggersDir, query)).catch(() => [])) {
      if (/^run-\d+$/.test(run)) found.push(`${query}/${run}`);
    }
  }
  // Stryker disable next-line MethodExpression: equivalent while Node lists a folder's names sorted (libuv's scandir); kept so the order does not rest on that
  return found.sort();
}
