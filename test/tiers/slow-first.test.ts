import { describe, expect, it } from "vitest";
import { slowFirst } from "./slow-first.js";

describe("slowFirst", () => {
  const name = (file: string) => file;

  it("starts the files with an expected time first, slowest first, then the rest in the order given", () => {
    const files = ["big.test.ts", "conformance-qwen.test.ts", "other.test.ts", "run.test.ts", "tiny.test.ts"];
    const expected = { "run.test.ts": 120, "conformance-qwen.test.ts": 130, "tiny.test.ts": 10 };
    expect(slowFirst(files, name, expected)).toEqual([
      "conformance-qwen.test.ts",
      "run.test.ts",
      "tiny.test.ts",
      "big.test.ts",
      "other.test.ts",
    ]);
  });

  it("keeps the given order when no file has an expected time, and never loses or repeats one", () => {
    const files = ["c.test.ts", "a.test.ts", "b.test.ts"];
    expect(slowFirst(files, name, { "gone.test.ts": 300 })).toEqual(files);
    expect(slowFirst([...files, "d.test.ts"], name, { "b.test.ts": 1 }).sort()).toEqual(
      [...files, "d.test.ts"].sort(),
    );
  });
});
