import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { errorsOf, type Finding, warningsOf } from "../../src/findings.js";
import { ranges } from "../../src/suite/group-findings.js";
import { likelyMeant } from "../../src/suite/key-typos.js";
import { loadSuite } from "../../src/suite/load.js";
import { tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

async function load(files: Record<string, unknown>) {
  await writeTree(dir.path, {
    "proj/.git/": null,
    "proj/skills/tidy/SKILL.md": "---\nname: tidy\n---\n",
    ...Object.fromEntries(
      Object.entries(files).map(([name, content]) => [`proj/skills/tidy/evals/${name}`, content]),
    ),
  });
  return loadSuite({
    skillDir: join(dir.path, "proj/skills/tidy"),
    skillName: "tidy",
    projectRoot: join(dir.path, "proj"),
  });
}

const evalsFile = () => join(dir.path, "proj/skills/tidy/evals/evals.json");
const brief = (f: Finding) => [f.severity, f.location, f.message];

describe("the suites people write", () => {
  test("evals without expectations load, with one warning saying how to grade them", async () => {
    const { suite, findings } = await load({
      "evals.json": {
        evals: [
          { id: 1, prompt: "a" },
          { id: 2, prompt: "b", expectations: [] },
          { id: 3, prompt: "c", assertions: [] },
          { id: 4, prompt: "d", expectations: ["graded"] },
        ],
      },
    });
    expect(suite?.evals.map((e) => e.expectations)).toEqual([[], [], [], ["graded"]]);
    expect(findings).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "eval-ungraded",
        file: evalsFile(),
        location: "evals[0..2]",
        message: expect.stringContaining("nothing grades this eval"),
        hint: expect.stringMatching(/expectations.*assertions.*checks/),
      }),
    ]);
  });

  test("assertions in grading.json's object shape are read as their text", async () => {
    const { suite, findings } = await load({
      "evals.json": {
        evals: [
          {
            id: "summary",
            prompt: "p",
            assertions: [{ text: "names the file", passed: false, evidence: "" }, "plain too"],
          },
        ],
      },
    });
    expect(findings).toEqual([]);
    expect(suite?.evals[0]?.expectations).toEqual(["names the file", "plain too"]);
  });

  test("a repeated bad entry is one grouped error with a fix line", async () => {
    const { suite, findings } = await load({
      "evals.json": {
        evals: [
          { id: 1, prompt: "p", assertions: [{ claim: "a" }, { claim: "b" }, { claim: "c" }, "ok", 5] },
        ],
      },
    });
    expect(suite).toBeUndefined();
    expect(findings.map(brief)).toEqual([
      ["error", "evals[0].assertions[0..2]", 'expected a sentence or {"text": …}, got object'],
      ["error", "evals[0].assertions[4]", 'expected a sentence or {"text": …}, got number 5'],
    ]);
    for (const f of findings) {
      expect(f.file).toBe(evalsFile());
      expect(f.hint).toBe('write each as a plain sentence, or as {"text": …}');
    }
  });

  test("plain sentences under checks are expectations, with a warning; typed checks stay checks", async () => {
    const { suite, findings } = await load({
      "evals.json": {
        evals: [
          {
            id: 1,
            prompt: "p",
            expectations: ["first"],
            checks: ["the output is short", { type: "file_exists", path: "out.txt" }, "it is polite"],
          },
        ],
      },
    });
    expect(suite?.evals[0]?.expectations).toEqual(["first", "the output is short", "it is polite"]);
    expect(suite?.evals[0]?.checks).toEqual([{ type: "file_exists", path: "out.txt" }]);
    expect(findings).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "checks-as-expectations",
        location: "evals[0].checks[0, 2]",
        hint: expect.stringContaining("move plain statements to `expectations`"),
      }),
    ]);
  });

  test("a bad typed check next to sentences still names the check's field", async () => {
    const { findings } = await load({
      "evals.json": { evals: [{ id: 1, prompt: "p", checks: ["fine", { type: "file_exist", path: "a" }] }] },
    });
    expect(errorsOf(findings).map((f) => f.location)).toEqual(["evals[0].checks[1].type"]);
    expect(errorsOf(findings)[0]?.hint).toContain("file_exists");
  });

  test("misspelled keys are errors that say what was meant, even where the eval is otherwise valid", async () => {
    const { suite, findings } = await load({
      "evals.json": {
        evals: [
          {
            id: 1,
            prompt: "p",
            expectation: ["singular"],
            file: ["in.csv"],
            timout: 30,
            checks: [{ type: "skill_invoked" }],
          },
          { id: 2, promt: "typed fast", expectations: ["x"] },
          { id: 3, Prompt: "capital", expectations: ["x"] },
        ],
      },
    });
    expect(suite).toBeUndefined();
    expect(findings.map(brief)).toEqual([
      [
        "error",
        "evals[0].expectation",
        "`expectation` is not a field of an eval; did you mean `expectations`?",
      ],
      ["error", "evals[0].file", "`file` is not a field of an eval; did you mean `files`?"],
      ["error", "evals[0].timout", "`timout` is not a field of an eval; did you mean `timeout`?"],
      ["error", "evals[1].promt", "`promt` is not a field of an eval; did you mean `prompt`?"],
      ["error", "evals[2].Prompt", "`Prompt` is not a field of an eval; did you mean `prompt`?"],
    ]);
    expect(findings.every((f) => f.hint?.startsWith("rename"))).toBe(true);
  });

  test("other unknown keys are one warning per file", async () => {
    const { suite, findings } = await load({
      "evals.json": {
        version: 2,
        evals: [
          { id: 1, prompt: "p", expectations: ["x"], category: "core", rubric: "r" },
          { id: 2, prompt: "p", expectations: ["x"], category: "edge" },
        ],
      },
    });
    expect(suite?.evals).toHaveLength(2);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: "warning", code: "unknown-fields", file: evalsFile() });
    expect(findings[0]?.message).toContain("`version` (top level)");
    expect(findings[0]?.message).toContain("`category` (evals[0], evals[1])");
    expect(findings[0]?.message).toContain("`rubric` (evals[0])");
  });

  test("every schema error names the file and JSON path and carries a fix", async () => {
    const { findings } = await load({
      "evals.json": {
        evals: [
          { id: 1.5, prompt: "", timeout: "30", files: "a.csv" },
          { id: 2, prompt: 7, checks: [{ type: "command" }] },
        ],
      },
    });
    const errors = errorsOf(findings);
    expect(errors.map((f) => f.location)).toEqual([
      "evals[0].id",
      "evals[0].prompt",
      "evals[0].files",
      "evals[0].timeout",
      "evals[1].prompt",
      "evals[1].checks[0].run",
    ]);
    for (const f of errors) {
      expect(f.file).toBe(evalsFile());
      expect(f.hint).toBeTruthy();
    }
    expect(errors.find((f) => f.location === "evals[0].timeout")?.hint).toBe(
      "remove the quotes around the number",
    );
  });

  test("ids that collide once mapped to skill-creator's integer eval_id are refused at the later one", async () => {
    const clash = await load({
      "evals.json": {
        evals: [
          { id: "a", prompt: "p", expectations: ["x"] },
          { id: 1, prompt: "p", expectations: ["x"] },
        ],
      },
    });
    expect(clash.suite).toBeUndefined();
    expect(clash.findings).toEqual([
      expect.objectContaining({
        severity: "error",
        file: evalsFile(),
        location: "evals[1].id",
        message: expect.stringContaining("eval_id 1"),
      }),
    ]);

    const mixed = await load({
      "evals.json": {
        evals: [
          { id: 1, prompt: "p", expectations: ["x"] },
          { id: "team-actions", prompt: "p", expectations: ["x"] },
          { id: 7, prompt: "p", expectations: ["x"] },
        ],
      },
    });
    expect(mixed.findings).toEqual([]);
    expect(mixed.suite?.evals.map((e) => [e.id, e.numericId])).toEqual([
      [1, 1],
      ["team-actions", 2],
      [7, 7],
    ]);
  });
});

describe("trigger files", () => {
  const queries = [true, true, true, false, false, false].map((should_trigger, i) => ({
    query: `q${i}`,
    should_trigger,
  }));

  test("trigger-eval.json, the name skill-creator's instructions use, is found", async () => {
    const { suite, findings } = await load({ "trigger-eval.json": queries });
    expect(findings).toEqual([]);
    expect(suite?.triggersFile).toBe(join(dir.path, "proj/skills/tidy/evals/trigger-eval.json"));
    expect(suite?.triggers).toHaveLength(6);
  });

  test("triggers.json wins over trigger-eval.json, with a warning", async () => {
    const { suite, findings } = await load({ "triggers.json": queries, "trigger-eval.json": queries });
    expect(suite?.triggersFile?.endsWith("triggers.json")).toBe(true);
    expect(warningsOf(findings)).toEqual([
      expect.objectContaining({
        code: "suite-duplicate-triggers",
        message: expect.stringContaining("triggers.json"),
      }),
    ]);
  });

  test("a misspelled should_trigger is an error that says what was meant", async () => {
    const { findings } = await load({
      "triggers.json": [...queries, { query: "q", should_triger: true }],
    });
    expect(findings.map(brief)).toEqual([
      [
        "error",
        "[6].should_triger",
        "`should_triger` is not a field of a trigger query; did you mean `should_trigger`?",
      ],
    ]);
  });
});

describe("helpers", () => {
  test("likely misspellings: case, singular or plural, small edits; short or distant keys are not", () => {
    const known = ["id", "name", "prompt", "files", "expectations", "timeout", "checks"];
    expect(likelyMeant("expectation", known)).toBe("expectations");
    expect(likelyMeant("file", known)).toBe("files");
    expect(likelyMeant("timout", known)).toBe("timeout");
    expect(likelyMeant("promt", known)).toBe("prompt");
    expect(likelyMeant("pormpt", known)).toBe("prompt");
    expect(likelyMeant("ID", known)).toBe("id");
    expect(likelyMeant("note", known)).toBeUndefined();
    expect(likelyMeant("category", known)).toBeUndefined();
    expect(likelyMeant("ix", known)).toBeUndefined();
  });

  test("index ranges", () => {
    expect(ranges([0, 1, 2, 5, 7, 8])).toBe("0..2, 5, 7..8");
    expect(ranges([3])).toBe("3");
  });
});
