// The CLI's only contact with the terminal; commands write through it and set the exit code.
export interface Io {
  out(text: string): void;
  err(text: string): void;
  setExitCode(code: number): void;
  exitCode(): number;
  isTTY: boolean;
}

export function createIo(): Io {
  let code = 0;
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    setExitCode: (c) => {
      code = Math.max(code, c);
    },
    exitCode: () => code,
    isTTY: Boolean(process.stdout.isTTY),
  };
}

export function captureIo(): Io & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  let code = 0;
  return {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    setExitCode: (c) => {
      code = Math.max(code, c);
    },
    exitCode: () => code,
    isTTY: false,
    stdout: () => out,
    stderr: () => err,
  };
}
