// How a run's number travels to the simulator: it is written into the attempt folder's name, which every agent's
// request carries as its working directory (`<tempRoot>/<name>.run-<n>.a<attempt>/work`). The marker ends the folder
// name, so whatever the run's own name holds, it is read back unambiguously.
const MARKER = /\.run-([1-9]\d*)\.a[1-9]\d*$/;

/** The folder of one attempt at a run: its name, then the run number and the attempt (a retry keeps the run number). */
export function attemptFolderName(name: string, runNumber: number, attempt: number): string {
  if (!Number.isInteger(runNumber) || runNumber < 1) throw new RangeError(`run number ${runNumber}`);
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt ${attempt}`);
  return `${name}.run-${runNumber}.a${attempt}`;
}

/** The run number of the attempt folder a path lies in (its innermost marked folder), if any. */
export function runNumberOfPath(path: string | undefined): number | undefined {
  if (!path) return undefined;
  for (const segment of path.split(/[\\/]/).reverse()) {
    const match = MARKER.exec(segment);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/**
 * The header a replayed request carries (`--screen replay`): `run-<n>`, the run it stands for. The simulator reads the
 * run's number from it (the captured request names the capture run's folder) and can tell it from the agent's.
 */
export const REPLAY_HEADER = "x-skillgym-replay";

/** What a request's replay header says: whether it is a replay and of which run. */
export function replayOfHeader(value: string | string[] | undefined): {
  replayed: boolean;
  runNumber?: number;
} {
  if (typeof value !== "string") return { replayed: false };
  const match = /^run-([1-9]\d*)$/.exec(value.trim());
  return { replayed: true, ...(match ? { runNumber: Number(match[1]) } : {}) };
}
