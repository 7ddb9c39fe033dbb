import { parseByteSize } from "../contracts/byte-size.js";

export { parseByteSize };

/** How much a run may leave behind to be collected: what it created or changed in its workspace. */
export interface OutputLimits {
  /** All collected files together, in bytes of apparent size (`--max-output`). */
  totalBytes: number;
  /** Any one collected file, in bytes of apparent size (`--max-output-file`). */
  fileBytes: number;
  /** How many files (`--max-output-files`). */
  files: number;
}

// Far above what a real skill writes, far below what fills a disk or a report.
export const DEFAULT_OUTPUT_LIMITS: OutputLimits = {
  totalBytes: 200 * 1024 ** 2,
  fileBytes: 50 * 1024 ** 2,
  files: 10_000,
};

/** When collecting must be done by: the run's own time limit (what is left of it, with a floor). */
export interface Deadline {
  /** Epoch milliseconds. */
  at: number;
  /** The run's time limit, for the message. */
  timeoutMs: number;
}

/** What bounds a collection. */
export interface CollectBounds {
  limits: OutputLimits;
  deadline?: Deadline;
}

/** The least time collecting gets, however little of the run's time the agent left. */
export const COLLECT_FLOOR_MS = 10_000;

export function collectDeadline(timeoutMs: number, agentMs: number, now: number): Deadline {
  return { at: now + Math.max(timeoutMs - agentMs, COLLECT_FLOOR_MS), timeoutMs };
}

/** Why a run's outputs were not collected: over a limit, or out of time. */
export class CollectStopped extends Error {
  readonly code: "OUTPUT_LIMIT" | "COLLECT_TIMEOUT";

  constructor(code: CollectStopped["code"], message: string) {
    super(message);
    this.name = "CollectStopped";
    this.code = code;
  }
}

const units: readonly [string, number][] = [
  ["TB", 1024 ** 4],
  ["GB", 1024 ** 3],
  ["MB", 1024 ** 2],
  ["KB", 1024],
];

export function formatBytes(bytes: number): string {
  for (const [name, multiple] of units) {
    if (bytes >= multiple) {
      const value = bytes / multiple;
      return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${name}`;
    }
  }
  return `${bytes} B`;
}

const count = (n: number) => n.toLocaleString("en-US");

export function fileTooLarge(file: string, bytes: number, limits: OutputLimits): CollectStopped {
  return new CollectStopped(
    "OUTPUT_LIMIT",
    `outputs over the limit: ${file} is ${formatBytes(bytes)} (apparent size), the largest file allowed is ${formatBytes(limits.fileBytes)} (--max-output-file)`,
  );
}

export function tooManyFiles(limits: OutputLimits): CollectStopped {
  return new CollectStopped(
    "OUTPUT_LIMIT",
    `outputs over the limit: more than ${count(limits.files)} files created or changed (counting stopped there), the most allowed is ${count(limits.files)} (--max-output-files)`,
  );
}

export function tooManyBytes(bytes: number, files: number, limits: OutputLimits): CollectStopped {
  return new CollectStopped(
    "OUTPUT_LIMIT",
    `outputs over the limit: the files created or changed come to ${formatBytes(bytes)} or more (apparent size; counting stopped after ${count(files)} ${files === 1 ? "file" : "files"}), the total allowed is ${formatBytes(limits.totalBytes)} (--max-output)`,
  );
}

/** Throws once the deadline has passed; cheap enough to call per file and per chunk. */
export function checkDeadline(deadline: Deadline | undefined, doing: string): void {
  if (deadline === undefined || Date.now() <= deadline.at) return;
  throw new CollectStopped(
    "COLLECT_TIMEOUT",
    `collecting the outputs ran past the run's time limit of ${Math.round(deadline.timeoutMs / 1000)} s (${doing}); raise --timeout or the eval's timeout`,
  );
}
