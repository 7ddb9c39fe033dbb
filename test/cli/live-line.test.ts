import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLiveLine } from "../../src/cli/live-line.js";

const BEGIN = "\u001b[?2026h";
const END = "\u001b[?2026l";
const ERASE_LINE = "\u001b[2K\u001b[1A\u001b[2K\u001b[G";

// A terminal's stderr that keeps what is written to it, each write made readable: the synchronised-output brackets
// dropped and the erasing of the status's line shown as `<erase>`.
function terminal() {
  const writes: string[] = [];
  const stream = {
    columns: 80,
    rows: 24,
    isTTY: true,
    write: (text: string) => {
      writes.push(text.replaceAll(BEGIN, "").replaceAll(END, "").replaceAll(ERASE_LINE, "<erase>"));
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, writes };
}

describe("createLiveLine", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("draws the status at once, redraws it every second, and erases it on hide", () => {
    const { stream, writes } = terminal();
    const line = createLiveLine(stream);
    let n = 0;
    line.show(() => `status ${++n}`);
    expect(writes).toEqual(["status 1\n"]);
    vi.advanceTimersByTime(999);
    expect(writes).toEqual(["status 1\n"]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(["status 1\n", "<erase>status 2\n"]);
    line.hide();
    expect(writes).toEqual(["status 1\n", "<erase>status 2\n", "<erase>"]);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(writes).toHaveLength(3);
  });

  it("keeps one timer when the status is shown again, drawing the new one", () => {
    const { stream, writes } = terminal();
    const line = createLiveLine(stream, 100);
    let n = 0;
    line.show(() => `first ${++n}`);
    line.show(() => `second ${++n}`);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(writes).toEqual(["first 1\n", "<erase>second 2\n", "<erase>second 3\n"]);
    line.hide();
  });

  it("can be shown again after it was hidden", () => {
    const { stream, writes } = terminal();
    const line = createLiveLine(stream, 100);
    line.show(() => "one");
    line.hide();
    line.show(() => "two");
    expect(vi.getTimerCount()).toBe(1);
    expect(writes).toEqual(["one\n", "<erase>", "two\n"]);
    line.hide();
  });

  it("draws nothing on refresh or hide while no status is shown", () => {
    const { stream, writes } = terminal();
    const line = createLiveLine(stream);
    line.refresh();
    line.hide();
    line.show(() => "shown");
    line.hide();
    line.refresh();
    line.hide();
    expect(writes).toEqual(["shown\n", "<erase>"]);
  });

  it("redraws at once on refresh", () => {
    const { stream, writes } = terminal();
    const line = createLiveLine(stream);
    let n = 0;
    line.show(() => `status ${++n}`);
    line.refresh();
    expect(writes).toEqual(["status 1\n", "<erase>status 2\n"]);
    line.hide();
  });

  it("writes text above the status, drawing it again below only once the text ends a line", () => {
    const { stream, writes } = terminal();
    const line = createLiveLine(stream);
    line.show(() => "status");
    line.around(() => stream.write("part of a "), false);
    line.around(() => stream.write("line\n"), true);
    expect(writes).toEqual(["status\n", "<erase>", "part of a ", "line\n", "status\n"]);
    line.hide();
  });

  it("writes text alone while no status is shown", () => {
    const { stream, writes } = terminal();
    const line = createLiveLine(stream);
    line.around(() => stream.write("a line\n"), true);
    expect(writes).toEqual(["a line\n"]);
  });
});

describe("the status's timer", () => {
  it("does not keep the process alive", () => {
    const { stream } = terminal();
    const line = createLiveLine(stream, 60_000);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const before = timers();
    line.show(() => "status");
    expect(timers()).toBe(before);
    line.hide();
  });
});
