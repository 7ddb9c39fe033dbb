import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { EvalsFile } from "../../src/contracts/evals.js";
import { Grading } from "../../src/contracts/grading.js";
import { readJsonFile } from "../../src/suite/json-file.js";
import { describeValue, jsonPath } from "../../src/suite/schema-issues.js";
import { tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

// Writes `data` as `name` in the temp folder, reads it back through `schema`: [location, message] of each error.
async function errorsOf(schema: z.ZodType, data: unknown, name = "record.json") {
  await writeTree(dir.path, { [name]: data });
  const { value, findings } = await readJsonFile(join(dir.path, name), schema);
  expect(value).toBeUndefined();
  for (const f of findings)
    expect(f).toMatchObject({ severity: "error", code: "json-schema", file: join(dir.path, name) });
  return findings.map((f) => [f.location, f.message]);
}

const evalsErrors = (data: unknown) => errorsOf(EvalsFile, data, "evals.json");
const evalWith = (fields: Record<string, unknown>) => ({ evals: [{ id: 1, prompt: "p", ...fields }] });
const allCheckTypes = "file_exists, file_contains, file_unchanged, command, skill_invoked, tool_called";

describe("places in a file", () => {
  test("names fields after a dot and entries by their index", () => {
    expect(jsonPath(["evals", 3, "prompt"])).toBe("evals[3].prompt");
    expect(jsonPath([2, "should_trigger"])).toBe("[2].should_trigger");
    expect(jsonPath(["$schema", "_notes", "x1"])).toBe("$schema._notes.x1");
    expect(jsonPath([])).toBeUndefined();
  });

  test("quotes a key that is not a plain name", () => {
    expect(jsonPath(["env", "my-var"])).toBe('env["my-var"]');
    expect(jsonPath(["1st"])).toBe('["1st"]');
    expect(jsonPath(["evals", 0, "a b"])).toBe('evals[0]["a b"]');
    expect(jsonPath(["a-"])).toBe('["a-"]');
  });
});

describe("values named in messages", () => {
  test("names null, and a missing value as nothing", async () => {
    expect(await evalsErrors(evalWith({ prompt: null }))).toEqual([
      ["evals[0].prompt", "expected string, got null"],
    ]);
    expect(describeValue(undefined)).toBe("nothing");
  });

  test("shows a string of 40 characters whole and cuts a longer one to 37 and an ellipsis", async () => {
    const forty = `${"x".repeat(30)}0123456789`;
    expect(await evalsErrors(evalWith({ timeout: forty }))).toEqual([
      ["evals[0].timeout", `expected number, got string "${forty}"`],
    ]);
    const long = `${"y".repeat(30)}0123456789abc`;
    expect(await evalsErrors(evalWith({ timeout: long }))).toEqual([
      ["evals[0].timeout", `expected number, got string "${"y".repeat(30)}0123456..."`],
    ]);
  });

  test("says which value a missing field of a fixed set of values could take", async () => {
    const Status = z.object({ status: z.enum(["running", "complete"]) });
    expect(await errorsOf(Status, {})).toEqual([
      ["status", 'expected one of "running", "complete", got nothing'],
    ]);
  });
});

describe("fields of the wrong kind", () => {
  test("a missing eval id names both kinds an id may be", async () => {
    expect(await evalsErrors({ evals: [{ prompt: "p" }] })).toEqual([
      ["evals[0].id", "required (number or string)"],
    ]);
  });

  test("an id of another kind names both kinds and the value", async () => {
    expect(await evalsErrors({ evals: [{ id: true, prompt: "p" }] })).toEqual([
      ["evals[0].id", "expected number or string, got boolean true"],
    ]);
  });

  test("an expectation that is neither a sentence nor an object says so", async () => {
    expect(await evalsErrors(evalWith({ expectations: ["fine", 5] }))).toEqual([
      ["evals[0].expectations[1]", 'expected a sentence or {"text": …}, got number 5'],
    ]);
    expect(await evalsErrors(evalWith({ assertions: [{ txt: "typo" }] }))).toEqual([
      ["evals[0].assertions[0]", 'expected a sentence or {"text": …}, got object'],
    ]);
  });

  test("a sentence where grading.json wants an object is told it expected an object", async () => {
    const grading = {
      expectations: ["The summary names the file"],
      summary: { passed: 0, failed: 0, total: 0, pass_rate: 0 },
    };
    expect(await errorsOf(Grading, grading, "grading.json")).toEqual([
      ["expectations[0]", 'expected object, got string "The summary names the file"'],
    ]);
  });

  test("a field that is not one of its fixed values lists them all", async () => {
    const grading = {
      expectations: [{ text: "t", passed: true, evidence: "e", source: "model" }],
      summary: { passed: 1, failed: 0, total: 1, pass_rate: 1 },
    };
    expect(await errorsOf(Grading, grading, "grading.json")).toEqual([
      ["expectations[0].source", 'expected one of "check", "judge", got string "model"'],
    ]);
  });

  test("a list of notes with a number in it names the entry", async () => {
    expect(await evalsErrors({ _design_notes: ["fine", 2], evals: [] })).toEqual([
      ["_design_notes[1]", "expected string, got number 2"],
    ]);
  });
});

describe("checks and other tagged entries", () => {
  test("a check of an unknown type lists every check type", async () => {
    expect(await evalsErrors(evalWith({ checks: [{ type: "file_missing", path: "out.txt" }] }))).toEqual([
      ["evals[0].checks[0].type", `unknown check type string "file_missing"; allowed: ${allCheckTypes}`],
    ]);
  });

  test("a check without a type asks for one of them", async () => {
    expect(await evalsErrors(evalWith({ checks: [{ path: "out.txt" }] }))).toEqual([
      ["evals[0].checks[0].type", `required; one of: ${allCheckTypes}`],
    ]);
  });

  // Only the `type` of an entry under `checks` is a check type; other tags list their own options.
  test("another tagged entry names its tag and lists its own options", async () => {
    const Shape = z.discriminatedUnion("type", [
      z.object({ type: z.literal("circle"), r: z.number() }),
      z.object({ type: z.literal("square"), side: z.number() }),
    ]);
    const Step = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("say") }),
      z.object({ kind: z.literal("wait") }),
    ]);
    const Drawing = z.object({ shapes: z.array(Shape), checks: z.array(Step) });
    expect(
      await errorsOf(Drawing, {
        shapes: [{ type: "hexagon" }, {}],
        checks: [{ kind: "jump" }, {}],
      }),
    ).toEqual([
      ["shapes[0].type", 'unknown type string "hexagon"; allowed: circle, square'],
      ["shapes[1].type", "required; one of: circle, square"],
      ["checks[0].kind", 'unknown kind string "jump"; allowed: say, wait'],
      ["checks[1].kind", "required; one of: say, wait"],
    ]);
  });
});

describe("unions inside unions", () => {
  test("an object failing a union nested in another is described by the object's own errors", async () => {
    const Note = z.object({
      note: z.union([z.string(), z.union([z.number(), z.object({ text: z.string() })])]),
    });
    expect(await errorsOf(Note, { note: { txt: "typo" } })).toEqual([["note.text", "required (string)"]]);
  });
});

describe("unions the message cannot pin on one branch", () => {
  test("an object that fits neither of two shapes keeps zod's message", async () => {
    const Target = z.object({
      target: z.union([z.object({ file: z.string() }), z.object({ url: z.string() })]),
    });
    expect(await errorsOf(Target, { target: {} })).toEqual([["target", "Invalid input"]]);
  });

  test("a plain value or null is not described by one branch of its union", async () => {
    const Mode = z.object({ mode: z.union([z.literal("auto"), z.number()]) });
    expect(await errorsOf(Mode, { mode: "manual" })).toEqual([["mode", "Invalid input"]]);
    expect(await errorsOf(Mode, { mode: null })).toEqual([["mode", "Invalid input"]]);
  });

  test("a value that matches two branches of an exclusive union keeps zod's message", async () => {
    const Name = z.object({ name: z.xor([z.string(), z.string().min(1)]) });
    expect(await errorsOf(Name, { name: "twice" })).toEqual([
      ["name", "Invalid input: more than one option matched"],
    ]);
  });

  test("an entry named like an expectation but not in a list is read as a union", async () => {
    const Config = z.object({ expectations: z.object({ main: z.union([z.string(), z.number()]) }) });
    expect(await errorsOf(Config, { expectations: { main: true } })).toEqual([
      ["expectations.main", "expected string or number, got boolean true"],
    ]);
  });
});

describe("sizes and bounds", () => {
  test("an empty prompt and an empty list must not be empty", async () => {
    expect(await evalsErrors({ conditions: { installed: [] }, evals: [{ id: 1, prompt: "" }] })).toEqual([
      ["conditions.installed", "must not be empty"],
      ["evals[0].prompt", "must not be empty"],
    ]);
  });

  test("other lengths of text are counted in characters", async () => {
    const Code = z.object({ code: z.string().min(3), flag: z.string().max(1), tag: z.string().max(4) });
    expect(await errorsOf(Code, { code: "ab", flag: "yes", tag: "toolong" })).toEqual([
      ["code", "must have at least 3 characters"],
      ["flag", "must have at most 1 character"],
      ["tag", "must have at most 4 characters"],
    ]);
  });

  test("other sizes of lists and sets are counted in items", async () => {
    const Team = z.object({
      agents: z.array(z.string()).min(2),
      lead: z.array(z.string()).max(1),
      tags: z.preprocess((v) => new Set(v as unknown[]), z.set(z.string()).min(1)),
      pair: z.preprocess((v) => new Set(v as unknown[]), z.set(z.string()).max(2)),
    });
    expect(
      await errorsOf(Team, { agents: ["a"], lead: ["a", "b"], tags: [], pair: ["a", "b", "c"] }),
    ).toEqual([
      ["agents", "must have at least 2 items"],
      ["lead", "must have at most 1 item"],
      ["tags", "must not be empty"],
      ["pair", "must have at most 2 items"],
    ]);
  });

  test("a number out of bounds names the bound, strict or not, and the value", async () => {
    expect(await evalsErrors(evalWith({ timeout: 0 }))).toEqual([
      ["evals[0].timeout", "must be > 0, got number 0"],
    ]);
    expect(await evalsErrors(evalWith({ checks: [{ type: "tool_called", name: "Bash", min: -1 }] }))).toEqual(
      [["evals[0].checks[0].min", "must be >= 0, got number -1"]],
    );
    const grading = { expectations: [], summary: { passed: 0, failed: 0, total: 0, pass_rate: 1.5 } };
    expect(await errorsOf(Grading, grading, "grading.json")).toEqual([
      ["summary.pass_rate", "must be <= 1, got number 1.5"],
    ]);
    const Confidence = z.object({ confidence: z.number().lt(1) });
    expect(await errorsOf(Confidence, { confidence: 1 })).toEqual([
      ["confidence", "must be < 1, got number 1"],
    ]);
  });
});

describe("fields a strict object does not know", () => {
  test("one unknown field is named", async () => {
    expect(await evalsErrors({ conditions: { root: "." }, evals: [] })).toEqual([
      ["conditions", 'unknown field "root"'],
    ]);
  });

  test("several unknown fields are named together", async () => {
    expect(await evalsErrors({ conditions: { root: ".", clean: true }, evals: [] })).toEqual([
      ["conditions", 'unknown fields "root", "clean"'],
    ]);
  });
});

describe("issues a refinement places", () => {
  // A refinement may report a field under one that is null or missing; the place is named all the same.
  test("an issue under a null or missing field is reported, not thrown", async () => {
    const Settings = z.looseObject({}).superRefine((_, ctx) => {
      ctx.addIssue({ code: "custom", path: ["settings", "mode"], message: "a mode is needed" });
    });
    expect(await errorsOf(Settings, { settings: null })).toEqual([["settings.mode", "a mode is needed"]]);
    expect(await errorsOf(Settings, {})).toEqual([["settings.mode", "a mode is needed"]]);
  });
});
