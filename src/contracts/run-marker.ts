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
  const segments = path.split(/[\\/]+/);
  for (let i = segments.length - 1; i >= 0; i--) {
    const match = MARKER.exec(segments[i]!);
    if (match) return Number(match[1]);
  }
  return undefined;
}
