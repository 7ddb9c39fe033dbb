import { captureIo } from "../../../src/cli/io.js";

/**
 * A captured Io whose live status is recorded: each `status` call is kept as the line it would show at that moment,
 * or `undefined` when it removes the status.
 */
export function liveIo() {
  const io = captureIo();
  const shown: (string | undefined)[] = [];
  return {
    ...io,
    liveStatus: true,
    status: (render: (() => string) | undefined) => {
      shown.push(render?.());
    },
    shown,
  };
}

/** A clock that moves only when told. */
export function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}
