import { afterEach, describe, expect, it, vi } from "vitest";
import { interruptSignal } from "../../src/cli/options.js";

type Listener = (...args: unknown[]) => void;

// The handler `interruptSignal` set for `signal`: called directly, no signal is sent to the process.
function handlerAdded(signal: NodeJS.Signals, before: Listener[]): Listener {
  const added = (process.listeners(signal) as Listener[]).filter((l) => !before.includes(l));
  expect(added).toHaveLength(1);
  return added[0] as Listener;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("interruptSignal", () => {
  it("cancels on the first Ctrl-C, telling the user, and exits with 130 on the second", () => {
    const before = process.listeners("SIGINT") as Listener[];
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const told: string[] = [];
    const interrupt = interruptSignal(() => told.push("cancelling"));
    try {
      const handler = handlerAdded("SIGINT", before);
      expect(interrupt.signal.aborted).toBe(false);
      handler("SIGINT");
      expect(interrupt.signal.aborted).toBe(true);
      expect(told).toEqual(["cancelling"]);
      expect(exit).not.toHaveBeenCalled();
      handler("SIGINT");
      expect(exit).toHaveBeenCalledWith(130);
    } finally {
      interrupt.dispose();
    }
  });

  it("cancels on SIGTERM too", () => {
    const before = process.listeners("SIGTERM") as Listener[];
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    let told = 0;
    const interrupt = interruptSignal(() => {
      told += 1;
    });
    try {
      handlerAdded("SIGTERM", before)("SIGTERM");
      expect([interrupt.signal.aborted, told]).toEqual([true, 1]);
      expect(exit).not.toHaveBeenCalled();
    } finally {
      interrupt.dispose();
    }
  });

  it("leaves no handler behind once disposed", () => {
    const before = { SIGINT: process.listenerCount("SIGINT"), SIGTERM: process.listenerCount("SIGTERM") };
    const interrupt = interruptSignal(() => {});
    expect({ SIGINT: process.listenerCount("SIGINT"), SIGTERM: process.listenerCount("SIGTERM") }).toEqual({
      SIGINT: before.SIGINT + 1,
      SIGTERM: before.SIGTERM + 1,
    });
    interrupt.dispose();
    expect({ SIGINT: process.listenerCount("SIGINT"), SIGTERM: process.listenerCount("SIGTERM") }).toEqual(
      before,
    );
    expect(interrupt.signal.aborted).toBe(false);
  });
});
