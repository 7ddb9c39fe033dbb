/** One run of the test double (claude.mjs), as its own process or served by the resident double (resident.ts). */
export interface DoubleRun {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Aborted when the process the run stands for has ended: the run stops and resolves to 1. */
  signal?: AbortSignal;
}

export function runDouble(run: DoubleRun): Promise<number>;
