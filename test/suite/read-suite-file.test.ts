import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import type { Finding } from "../../src/findings.js";
import type { InputRulesResult } from "../../src/suite/input-rules.js";
import { readSuiteFile } from "../../src/suite/read-suite-file.js";
import { tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.remove());

const schema = z.object({ name: z.string() });

function rulesGiving(...findings: Finding[]): (data: unknown, file: string) => InputRulesResult {
  return () => ({ findings, misspelled: new Set() });
}

function note(severity: Finding["severity"], file: string): Finding {
  return { severity, code: "note", file, message: `a ${severity}` };
}

async function read(text: string, rules = rulesGiving()) {
  const file = join(dir.path, "suite.json");
  await writeTree(dir.path, { "suite.json": text });
  return { file, result: await readSuiteFile(file, schema, rules) };
}

describe("readSuiteFile", () => {
  test("a missing file is its only finding", async () => {
    const file = join(dir.path, "nope.json");
    expect(await readSuiteFile(file, schema, rulesGiving())).toEqual({
      findings: [{ severity: "error", code: "file-missing", file, message: "file not found" }],
    });
  });

  test("broken JSON is its only finding", async () => {
    const { file, result } = await read("{");
    expect(result.findings.map((f) => [f.code, f.file])).toEqual([["json-syntax", file]]);
    expect(result.value).toBeUndefined();
  });

  test("warnings of the rules come with the value", async () => {
    const { result } = await read('{"name": "x"}', rulesGiving(note("warning", "f")));
    expect(result).toEqual({ value: { name: "x" }, findings: [note("warning", "f")] });
  });

  test("an error of the rules withholds the value even when the schema passes", async () => {
    const { result } = await read('{"name": "x"}', rulesGiving(note("warning", "f"), note("error", "f")));
    expect(result).toStrictEqual({ findings: [note("warning", "f"), note("error", "f")] });
  });

  test("rule findings come before schema findings", async () => {
    const { file, result } = await read('{"name": 1}', rulesGiving(note("warning", "f")));
    expect(result.value).toBeUndefined();
    expect(result.findings.map((f) => [f.code, f.file, f.location])).toEqual([
      ["note", "f", undefined],
      ["json-schema", file, "name"],
    ]);
  });
});
