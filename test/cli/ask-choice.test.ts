import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { askChoice } from "../../src/cli/ask-choice.js";
import { captureIo } from "../../src/cli/io.js";

// The terminal: what the user types arrives on a stand-in stdin; the prompt readline writes to stderr is kept.
const stdin = Object.getOwnPropertyDescriptor(process, "stdin") as PropertyDescriptor;
let input: PassThrough;
let prompted: string;

beforeEach(() => {
  input = new PassThrough();
  prompted = "";
  Object.defineProperty(process, "stdin", { value: input, configurable: true });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    prompted += String(chunk);
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(process, "stdin", stdin);
});

async function answer(typed: string, choices = ["keep", "apply", "revert"], fallback = 1) {
  const io = captureIo();
  const chosen = askChoice(io, "What now?", choices, fallback);
  input.write(`${typed}\n`);
  return { chosen: await chosen, asked: io.stderr(), prompted };
}

describe("askChoice", () => {
  it("lists the choices numbered from 1 and asks for one, offering the fallback", async () => {
    expect(await answer("3")).toEqual({
      chosen: 2,
      asked: "What now?\n  1) keep\n  2) apply\n  3) revert\n",
      prompted: "choose 1-3 [2]: ",
    });
  });

  it("takes the first and the last choice by number, spaces around it ignored", async () => {
    expect((await answer(" 1 ")).chosen).toBe(0);
    expect((await answer("3", ["a", "b", "c"], 0)).chosen).toBe(2);
  });

  it("takes the fallback for an empty answer, a number out of range or not whole, or words", async () => {
    for (const typed of ["", "0", "4", "1.5", "-1", "apply"]) expect((await answer(typed)).chosen).toBe(1);
    expect((await answer("", ["only"], 0)).chosen).toBe(0);
  });

  it("lets go of stdin once answered", async () => {
    await answer("2");
    expect(input.listenerCount("data")).toBe(0);
    expect(input.listenerCount("keypress")).toBe(0);
  });
});
