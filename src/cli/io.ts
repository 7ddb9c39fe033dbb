import { createLiveLine } from "./live-line.js";

// The CLI's only contact with the terminal; commands write through it and set the exit code.
export interface Io {
  out(text: string): void;
  err(text: string): void;
  setExitCode(code: number): void;
  exitCode(): number;
  isTTY: boolean;
  /**
   * A status that redraws in place under the stderr lines while long work runs, on a terminal only (elsewhere it
   * shows nothing); `undefined` removes it. `render` is called again every second and on `err`.
   */
  status(render: (() => string) | undefined): void;
  /** Whether `status` shows anything: stderr is a terminal. */
  liveStatus: boolean;
}

export function createIo(): Io {
  let code = 0;
  // Progress goes to stderr, so stderr (not stdout) decides whether the status redraws in place.
  const live = process.stderr.isTTY ? createLiveLine(process.stderr) : undefined;
  // A reader that went away (`skillgym … | head`) ends stdout, not the command: later output is dropped.
  let stdoutOpen = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    stdoutOpen = false;
  });
  return {
    out: (text) => {
      if (!stdoutOpen) return;
      if (live) live.around(() => process.stdout.write(text), text.endsWith("\n"));
      else process.stdout.write(text);
    },
    err: (text) => {
      if (live) live.around(() => process.stderr.write(text), text.endsWith("\n"));
      else process.stderr.write(text);
    },
    setExitCode: (c) => {
      code = Math.max(code, c);
    },
    exitCode: () => code,
    isTTY: Boolean(process.stdout.isTTY),
    status: (render) => {
      if (!live) return;
      if (render) live.show(render);
      else live.hide();
    },
    liveStatus: live !== undefined,
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
    status: () => {},
    liveStatus: false,
    stdout: () => out,
    stderr: () => err,
  };
}
