import { describe, expect, it } from "vitest";
import { openGate } from "../../src/run/gate.js";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `count` pieces of work through the gate, each holding its slot until released by hand. */
function holders(through: ReturnType<typeof openGate>, count: number) {
  const started: number[] = [];
  const release: (() => void)[] = [];
  const done = Array.from({ length: count }, (_, i) =>
    through(async () => {
      started.push(i);
      await new Promise<void>((r) => {
        release[i] = r;
      });
      return i * 10;
    }),
  );
  return { started, release, done };
}

describe("openGate", () => {
  it("lets at most size() through at once, and the rest start in the order they came as slots free", async () => {
    const { started, release, done } = holders(
      openGate(() => 2),
      4,
    );
    await pause(5);
    expect(started).toEqual([0, 1]);
    release[1]?.();
    await pause(5);
    expect(started).toEqual([0, 1, 2]);
    release[0]?.();
    await pause(5);
    expect(started).toEqual([0, 1, 2, 3]);
    release[2]?.();
    release[3]?.();
    expect(await Promise.all(done)).toEqual([0, 10, 20, 30]);
  });

  it("reads the size again before each start, and a size below one still lets one through", async () => {
    let size = 0;
    const { started, release, done } = holders(
      openGate(() => size),
      3,
    );
    await pause(5);
    expect(started).toEqual([0]);
    size = 3;
    release[0]?.();
    await pause(5);
    expect(started).toEqual([0, 1, 2]);
    release[1]?.();
    release[2]?.();
    await Promise.all(done);
  });

  it("frees the slot of work that throws, and passes the error on", async () => {
    const through = openGate(() => 1);
    const failed = through(async () => {
      throw new Error("broken");
    });
    const next = through(async () => "next");
    await expect(failed).rejects.toThrow("broken");
    expect(await next).toBe("next");
  });
});
