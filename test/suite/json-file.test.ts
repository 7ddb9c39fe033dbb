import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { EvalsFile, TriggersFile } from "../../src/contracts/evals.js";
import { checkAgainstSchema, nativeOffset, readJsonFile, unreadable } from "../../src/suite/json-file.js";
import { findJsonSyntaxError, lineColumnAt } from "../../src/suite/json-syntax.js";
import { tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

async function readText(
  name: string,
  text: string,
  schema: typeof EvalsFile | typeof TriggersFile = EvalsFile,
) {
  await writeTree(dir.path, { [name]: text });
  return readJsonFile(join(dir.path, name), schema);
}

describe("malformed JSON", () => {
  test.each([
    ['{\n  "evals": [\n    { "id": 1, }\n  ]\n}', 3, 16, "trailing comma"],
    ['{\n  "evals": []\n  "skill_name": "x"\n}', 3, 3, "',' or '}'"],
    ['{\n  "evals": [1, 2', 2, 17, "end of file"],
    ["{\r\n  \"evals\": [],\r\n  'skill_name': 1\r\n}", 3, 3, "double quotes"],
    ['{"evals": []}\n  x', 2, 3, "after the end"],
    ['{\n"a": "one\ntwo"}', 2, 10, "control character"],
    ["   ", 1, 1, "empty"],
    ['{"a": 01}', 1, 8, "invalid number"],
  ])("reports line and column for %j", async (text, line, column, words) => {
    const { value, findings } = await readText("evals.json", text);
    expect(value).toBeUndefined();
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: "error",
      code: "json-syntax",
      file: join(dir.path, "evals.json"),
      location: `line ${line}, column ${column}`,
    });
    expect(findings[0]?.message).toContain(words);
  });

  test("the scanner accepts exactly what JSON.parse accepts", () => {
    const samples = [
      '{"a":[1,-2.5e+3,true,false,null,"\\u00e9\\n",{}],"b":{"c":[]}}',
      '"just a string"',
      " 0 ",
      "[1,]",
      '{"a":1,}',
      "[.5]",
      "[1.]",
      "[-]",
      '["\\x"]',
      '["\\u12"]',
      "{a:1}",
      "[tru]",
      "[1] [2]",
      '"é ✓ 😀"',
      "",
    ];
    for (const sample of samples) {
      let parses = true;
      try {
        JSON.parse(sample);
      } catch {
        parses = false;
      }
      expect({ sample, parses: findJsonSyntaxError(sample) === undefined }).toEqual({ sample, parses });
    }
  });

  test("columns count from 1 and lines restart after a newline", () => {
    expect(lineColumnAt("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});

describe("files that cannot be read", () => {
  test("a missing file is an error naming it", async () => {
    const file = join(dir.path, "nope.json");
    const { findings } = await readJsonFile(file, EvalsFile);
    expect(findings).toEqual([
      expect.objectContaining({ severity: "error", file, message: "file not found" }),
    ]);
  });

  test("a folder is an error", async () => {
    const { findings } = await readJsonFile(dir.path, EvalsFile);
    expect(findings[0]?.message).toContain("is a folder");
  });

  test("a byte order mark is accepted", async () => {
    const { value, findings } = await readText(
      "triggers.json",
      '\ufeff[{"query":"q","should_trigger":true}]',
      TriggersFile,
    );
    expect(findings).toEqual([]);
    expect(value).toEqual([{ query: "q", should_trigger: true }]);
  });
});

describe("schema failures name JSON paths", () => {
  async function issues(data: unknown, schema: typeof EvalsFile | typeof TriggersFile = EvalsFile) {
    const { value, findings } = await readText("f.json", JSON.stringify(data), schema);
    expect(value).toBeUndefined();
    return findings.map((f) => [f.location, f.message]);
  }

  test("wrong types and missing fields", async () => {
    const found = await issues({
      evals: [
        { id: 1, prompt: "ok", expectations: [] },
        { id: 2, prompt: "ok", expectations: [] },
        { id: 3, prompt: "ok", expectations: [] },
        { id: 4, prompt: 42, expectations: "a string" },
        { id: 5, expectations: [] },
      ],
    });
    expect(found).toEqual([
      ["evals[3].prompt", "expected string, got number 42"],
      ["evals[3].expectations", 'expected array, got string "a string"'],
      ["evals[4].prompt", "required (string)"],
    ]);
  });

  test("triggers paths start at the array index", async () => {
    const found = await issues(
      [
        { query: "q", should_trigger: true },
        { query: "q2", should_trigger: "yes" },
      ],
      TriggersFile,
    );
    expect(found).toEqual([["[1].should_trigger", 'expected boolean, got string "yes"']]);
  });

  test("an unknown check type lists the allowed ones", async () => {
    const found = await issues({
      evals: [{ id: 1, prompt: "p", checks: [{ type: "file_exist", path: "a" }] }],
    });
    expect(found).toHaveLength(1);
    expect(found[0]?.[0]).toBe("evals[0].checks[0].type");
    expect(found[0]?.[1]).toContain('unknown check type string "file_exist"');
    for (const type of [
      "file_exists",
      "file_contains",
      "file_unchanged",
      "command",
      "skill_invoked",
      "tool_called",
    ]) {
      expect(found[0]?.[1]).toContain(type);
    }
  });

  test("a check field of the wrong type", async () => {
    const found = await issues({
      evals: [{ id: 1, prompt: "p", checks: [{ type: "command", run: "true", expect_exit: "0" }] }],
    });
    expect(found).toEqual([["evals[0].checks[0].expect_exit", 'expected number, got string "0"']]);
  });

  test("an id that is neither integer nor string, an empty prompt, a bad timeout", async () => {
    const found = await issues({
      evals: [
        { id: 1.5, prompt: "", expectations: [], timeout: 0 },
        { id: true, prompt: "p", expectations: [] },
      ],
    });
    expect(found).toEqual([
      ["evals[0].id", "expected integer or string, got number 1.5"],
      ["evals[0].prompt", "must not be empty"],
      ["evals[0].timeout", "must be > 0, got number 0"],
      ["evals[1].id", "expected number or string, got boolean true"],
    ]);
  });

  test("the wrong top-level shape has no location", async () => {
    const { findings } = await readText("evals.json", "[]");
    expect(findings).toEqual([expect.objectContaining({ message: "expected object, got array" })]);
    expect(findings[0]?.location).toBeUndefined();
  });
});

describe("exact findings", () => {
  test("a syntax error carries the json-syntax code, its location and the fix", async () => {
    const { findings } = await readText("evals.json", '{"evals": [1,]}');
    expect(findings).toEqual([
      {
        severity: "error",
        code: "json-syntax",
        file: join(dir.path, "evals.json"),
        location: "line 1, column 14",
        message: "invalid JSON: trailing comma before ']'",
        hint: "fix the JSON syntax (no comments, no trailing commas, double-quoted strings)",
      },
    ]);
  });

  test("a schema error carries the json-schema code", async () => {
    const { findings } = await readText("evals.json", "[]");
    expect(findings.map((f) => [f.severity, f.code, f.file])).toEqual([
      ["error", "json-schema", join(dir.path, "evals.json")],
    ]);
  });

  test("a missing file has the file-missing code", async () => {
    const file = join(dir.path, "nope.json");
    const { findings } = await readJsonFile(file, EvalsFile);
    expect(findings).toEqual([{ severity: "error", code: "file-missing", file, message: "file not found" }]);
  });

  test("a folder has the file-unreadable code", async () => {
    const { findings } = await readJsonFile(dir.path, EvalsFile);
    expect(findings).toEqual([
      {
        severity: "error",
        code: "file-unreadable",
        file: dir.path,
        message: "is a folder, expected a JSON file",
      },
    ]);
  });

  test.each([
    ["EACCES", "permission denied"],
    ["EPERM", "permission denied"],
    ["EIO", "cannot read the file: disk on fire"],
  ])("a read failing with %s is file-unreadable: %s", (code, message) => {
    const error = Object.assign(new Error("disk on fire"), { code });
    expect(unreadable("f.json", error)).toEqual({
      severity: "error",
      code: "file-unreadable",
      file: "f.json",
      message,
    });
  });

  test("a thrown value that is not an Error is shown as text", () => {
    expect(unreadable("f.json", "odd")).toEqual({
      severity: "error",
      code: "file-unreadable",
      file: "f.json",
      message: "cannot read the file: odd",
    });
  });
});

describe("misspelled keys", () => {
  const schema = z.object({ a: z.string(), b: z.string() });

  test("drop only the 'required' errors of their paths", () => {
    const { findings } = checkAgainstSchema({ a: 1 }, schema, "f.json", new Set(["a", "b"]));
    expect(findings.map((f) => [f.location, f.message])).toEqual([["a", "expected string, got number 1"]]);
  });

  test("without them every error is kept", () => {
    const { findings } = checkAgainstSchema({ a: 1 }, schema, "f.json");
    expect(findings.map((f) => [f.location, f.message])).toEqual([
      ["a", "expected string, got number 1"],
      ["b", "required (string)"],
    ]);
  });
});

describe("offsets from JSON.parse messages", () => {
  // Eleven lines of three characters, then the line the error is on.
  const body = `${Array(11).fill("xyz").join("\n")}\n0123456789abcdefg`;

  test("line and column are preferred over the position", () => {
    expect(nativeOffset("Unexpected token in JSON at position 99 (line 12 column 15)", body)).toBe(58);
    expect(body.charAt(58)).toBe("e");
  });

  test("the position is used when there is no line and column", () => {
    expect(nativeOffset("Unexpected token } in JSON at position 12", body)).toBe(12);
  });

  test("a message with neither gives no offset", () => {
    expect(nativeOffset("Unexpected end of JSON input", body)).toBeUndefined();
  });
});
