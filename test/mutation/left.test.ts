import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { entryFor, originalOf, readLeft } from "../../scripts/mutation-left.mjs";

// The list of survivors left on purpose (test/mutation/left/), as scripts/mutation-scores.mjs reads it.
let dir = "";
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function lists(files: Record<string, unknown>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "mutation-left-"));
  await mkdir(join(dir, "left"));
  for (const [name, body] of Object.entries(files)) {
    await writeFile(join(dir, "left", name), typeof body === "string" ? body : JSON.stringify(body));
  }
  return join(dir, "left");
}

const entry = {
  file: "src/a.ts",
  mutator: "ConditionalExpression",
  original: "x > 1",
  replacement: "true",
  reason: "equivalent: x is never 1",
};
const source = "const x = 2;\nif (x > 1) go();\n";
const mutant = (over: object = {}) => ({
  mutatorName: "ConditionalExpression",
  replacement: "true",
  location: { start: { line: 2, column: 5 }, end: { line: 2, column: 10 } },
  ...over,
});

describe("the list of survivors left", () => {
  it("reads every list, each entry with the file and index it was written at", async () => {
    const at = await lists({
      "b.json": [entry],
      "a.json": [{ ...entry, file: "src/b.ts" }],
      "notes.txt": "x",
    });
    const read = await readLeft(at);
    expect(read.map((e) => [e.file, e.at])).toEqual([
      ["src/b.ts", `${join(at, "a.json")}[0]`],
      ["src/a.ts", `${join(at, "b.json")}[0]`],
    ]);
  });

  it("is empty when there is no list folder", async () => {
    expect(await readLeft(join(tmpdir(), "no-such-left-folder"))).toEqual([]);
  });

  it.each([
    ["a missing field", [{ ...entry, original: undefined }], '[0]: "original" must be a string'],
    ["a reason of no kind", [entry, { ...entry, reason: "it is fine" }], '[1]: "reason" must start with'],
    ["a kind with no reason", [{ ...entry, reason: "unreachable: " }], '[0]: "reason" must start with'],
    ["an object, not a list", entry, "must be an array of entries"],
    ["no JSON", "[{", "not JSON"],
  ])("refuses %s, naming the file and the place", async (_what, body, message) => {
    const at = await lists({ "sim.json": body });
    await expect(readLeft(at)).rejects.toThrow(`${join(at, "sim.json")}`);
    await expect(readLeft(at)).rejects.toThrow(message);
  });

  it("takes a mutant's original text from its location, across lines", () => {
    expect(originalOf(source, mutant())).toBe("x > 1");
    const across = { start: { line: 1, column: 7 }, end: { line: 2, column: 3 } };
    expect(originalOf(source, mutant({ location: across }))).toBe("x = 2;\nif");
  });

  it("matches a mutant by its file, mutator, replacement and original text, each", async () => {
    const entries = await readLeft(await lists({ "top.json": [entry] }));
    expect(entryFor(entries, "src/a.ts", source, mutant())?.reason).toBe(entry.reason);
    expect(entryFor(entries, "src/b.ts", source, mutant())).toBeUndefined();
    expect(
      entryFor(entries, "src/a.ts", source, mutant({ mutatorName: "EqualityOperator" })),
    ).toBeUndefined();
    expect(entryFor(entries, "src/a.ts", source, mutant({ replacement: "false" }))).toBeUndefined();
    const shifted = { start: { line: 2, column: 5 }, end: { line: 2, column: 9 } };
    expect(entryFor(entries, "src/a.ts", source, mutant({ location: shifted }))).toBeUndefined();
  });

  it("matches a removal, whose replacement Stryker may leave out, to an empty replacement", async () => {
    const entries = await readLeft(await lists({ "top.json": [{ ...entry, replacement: "" }] }));
    expect(entryFor(entries, "src/a.ts", source, mutant({ replacement: undefined }))).toBeDefined();
  });
});
