import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";

type Listener = (...args: unknown[]) => void;

const added = (signal: NodeJS.Signals, before: Listener[]) =>
  (process.listeners(signal) as Listener[]).filter((l) => !before.includes(l));

/**
 * `skillgym <args>` for a command that serves until Ctrl-C, run in this process: resolves once it says how to stop
 * it and waits for Ctrl-C, with what it printed so far; `stop(signal)` calls the handler it set for that signal (no signal is sent to the
 * process) and resolves to its exit code and the handlers it left behind.
 */
export async function serving(args: string[]) {
  const io = captureIo();
  const before = {
    SIGINT: process.listeners("SIGINT") as Listener[],
    SIGTERM: process.listeners("SIGTERM") as Listener[],
  };
  let ended = false;
  const done = main(args, io).finally(() => {
    ended = true;
  });
  for (
    let waited = 0;
    !io.stdout().includes("Ctrl-C stops it.\n") || added("SIGINT", before.SIGINT).length === 0;
    waited += 10
  ) {
    if (ended || waited > 10_000) throw new Error(`skillgym ${args.join(" ")} did not serve: ${io.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    io,
    handlers: () => ({
      SIGINT: added("SIGINT", before.SIGINT).length,
      SIGTERM: added("SIGTERM", before.SIGTERM).length,
    }),
    async stop(signal: "SIGINT" | "SIGTERM") {
      const [handler] = added(signal, before[signal]);
      if (!handler) throw new Error(`no ${signal} handler`);
      handler(signal);
      const code = await done;
      return { code, left: added("SIGINT", before.SIGINT).length + added("SIGTERM", before.SIGTERM).length };
    },
  };
}
