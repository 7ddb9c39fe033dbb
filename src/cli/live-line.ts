import { createLogUpdate } from "log-update";

/** A status that redraws in place below the lines written around it; only ever made for a terminal. */
export interface LiveLine {
  /** Shows the status `render` draws, redrawn every second (elapsed time moves on) and on every change. */
  show(render: () => string): void;
  /** Redraws the status now (something it shows has changed). */
  refresh(): void;
  /** Removes the status from the screen. */
  hide(): void;
  /** Writes text above the status, which is drawn again below it once the text ends a line. */
  around(write: () => void, endsLine: boolean): void;
}

export function createLiveLine(stream: NodeJS.WriteStream, tickMs = 1000): LiveLine {
  const draw = createLogUpdate(stream, { showCursor: true });
  let render: (() => string) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const redraw = () => {
    if (!render) return;
    draw(render());
  };
  // Erasing a status never drawn (or already erased) writes nothing.
  const erase = () => draw.clear();
  return {
    show(next) {
      render = next;
      redraw();
      timer ??= setInterval(redraw, tickMs);
      // The ticking status never keeps the process alive on its own.
      timer.unref();
    },
    refresh: redraw,
    hide() {
      erase();
      render = undefined;
      // Clearing no timer does nothing.
      clearInterval(timer);
      timer = undefined;
    },
    around(write, endsLine) {
      erase();
      write();
      if (endsLine) redraw();
    },
  };
}
