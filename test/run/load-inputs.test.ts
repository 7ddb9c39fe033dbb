import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { loadInputs } from "../../src/run/index.js";
import { runInputs } from "../../src/run/options.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "good/SKILL.md": skillMd("good", "Writes notes.", "Write a note."),
    "good/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "a note", expectations: ["a note"] }],
    }),
    "good/evals/triggers.json": JSON.stringify([{ query: "write a note", should_trigger: true }]),
    "bare/SKILL.md": skillMd("bare", "Writes notes.", "Write a note."),
    "triggered/SKILL.md": skillMd("triggered", "Writes notes.", "Write a note."),
    "triggered/evals/triggers.json": JSON.stringify([{ query: "write a note", should_trigger: true }]),
    "broken/SKILL.md": "---\nname: Broken Name\ndescription: Writes notes.\n---\n\nBody.\n",
    "badsuite/SKILL.md": skillMd("badsuite", "Writes notes.", "Write a note."),
    "badsuite/evals/evals.json": JSON.stringify({ evals: [{ id: 1, expectations: ["a note"] }] }),
    "twobad/SKILL.md": skillMd("twobad", "Writes notes.", "Write a note."),
    "twobad/evals/evals.json": JSON.stringify({
      evals: [
        { id: 1, expectations: ["a note"] },
        { id: 2, prompt: "a note", expectations: ["a note"], timeout: "soon" },
      ],
    }),
    "elsewhere/evals.json": JSON.stringify({ evals: [{ id: 7, prompt: "elsewhere", expectations: ["x"] }] }),
    "roomy/SKILL.md": skillMd("roomy", "Writes notes.", "Write a note."),
    "proj/evals/roomy/evals.json": JSON.stringify({
      evals: [{ id: 3, prompt: "roomy", expectations: ["x"] }],
    }),
    "evalsonly/SKILL.md": skillMd("evalsonly", "Writes notes.", "Write a note."),
    "evalsonly/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "a note", expectations: ["a note"] }],
    }),
    "warned/SKILL.md": skillMd("warned", "Writes notes.", "Write a note."),
    "warned/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "a note", expectations: ["a note"] }],
      extra_field: 1,
    }),
  });
});
afterAll(() => cleanup());

async function refusal(options: Parameters<typeof loadInputs>[0]): Promise<SkillgymError> {
  const error = await loadInputs(options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

const HINT = "fix the errors above (`skillgym validate` lists every finding); nothing was run";
const missingHint = (name: string) =>
  `put one in ${join(dir, name)}/evals/, in <project>/evals/${name}/, or pass --evals PATH ` +
  "(searched: --evals, <skill>/evals/, <skill>/../../evals/<name>/, <project-root>/evals/<name>/, <project-root>/evals/**/<name>/)";

describe("loadInputs", () => {
  it("refuses an invalid skill, listing each error under the message", async () => {
    const error = await refusal({ skillPath: join(dir, "broken"), need: "evals" });
    expect([error.code, error.message, error.hint]).toEqual([
      "INVALID_SKILL",
      `the skill is not valid:\n  error: ${join(dir, "broken", "SKILL.md")}: line 2: \`name\` "Broken Name" may only hold a–z, 0–9 and "-"\n    fix: use lowercase letters, digits and single hyphens, e.g. \`broken-name\``,
      HINT,
    ]);
  });

  it("refuses an invalid suite, listing each error under the message", async () => {
    const error = await refusal({ skillPath: join(dir, "badsuite"), need: "evals" });
    expect([error.code, error.message, error.hint]).toEqual([
      "INVALID_SUITE",
      `the eval suite is not valid:\n  error: ${join(dir, "badsuite", "evals", "evals.json")}: evals[0].prompt: required (string)\n    fix: write the task the agent is given as a non-empty string`,
      HINT,
    ]);
  });

  it("lists every error of an invalid suite, one under the other", async () => {
    const error = await refusal({ skillPath: join(dir, "twobad"), need: "evals" });
    const file = join(dir, "twobad", "evals", "evals.json");
    expect(error.message.split("\n").filter((line) => line.startsWith("  error: "))).toEqual([
      `  error: ${file}: evals[0].prompt: required (string)`,
      `  error: ${file}: evals[1].timeout: expected number, got string "soon"`,
    ]);
  });

  it("refuses a skill without the file the command needs, saying where it looked", async () => {
    const cases = [
      ["bare", "evals", 'no evals.json found for skill "bare"'],
      ["bare", "any", 'no evals.json or triggers.json found for skill "bare"'],
      ["triggered", "evals", 'no evals.json found for skill "triggered"'],
      ["evalsonly", "triggers", 'no triggers.json found for skill "evalsonly"'],
    ] as const;
    for (const [skill, need, message] of cases) {
      const error = await refusal({ skillPath: join(dir, skill), need });
      expect([error.code, error.message, error.hint]).toEqual(["NO_EVALS", message, missingHint(skill)]);
    }
  });

  it("loads a suite that has the file the command needs, with its warnings", async () => {
    const triggers = await loadInputs({ skillPath: join(dir, "triggered"), need: "any" });
    expect(triggers.suite.triggersFile).toBe(join(dir, "triggered", "evals", "triggers.json"));
    const evals = await loadInputs({ skillPath: join(dir, "evalsonly"), need: "any" });
    expect(evals.suite.evalsFile).toBe(join(dir, "evalsonly", "evals", "evals.json"));
    const both = await loadInputs({ skillPath: join(dir, "good"), need: "triggers" });
    expect(both.suite.triggersFile).toBe(join(dir, "good", "evals", "triggers.json"));

    const warned = await loadInputs({ skillPath: join(dir, "warned"), need: "evals" });
    expect(warned.skill.name).toBe("warned");
    expect(warned.warnings).toEqual([
      {
        severity: "warning",
        code: "unknown-fields",
        file: join(dir, "warned", "evals", "evals.json"),
        message: "fields skillgym does not read, ignored: `extra_field` (top level)",
        hint: "fine if they are notes for people; otherwise check the field names against the evals.json format",
      },
    ]);
  });

  it("reads the suite --evals names, and resolves a given project root", async () => {
    const loaded = await loadInputs({
      skillPath: join(dir, "bare"),
      evalsPath: join(dir, "elsewhere", "evals.json"),
      projectRoot: "test",
      need: "evals",
    });
    expect(loaded.suite.evalsFile).toBe(join(dir, "elsewhere", "evals.json"));
    expect(loaded.suite.evals.map((e) => e.id)).toEqual([7]);
    expect(loaded.projectRoot).toBe(resolve("test"));
  });
});

describe("runInputs", () => {
  const base = {
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 60,
    createAgent: () => Promise.reject(new Error("no agent")),
  };

  it("loads the evals from --evals and from the project root given", async () => {
    const given = await runInputs(
      { ...base, skillPath: join(dir, "bare"), evalsPath: join(dir, "elsewhere", "evals.json") },
      "evals",
    );
    expect(given.suite.evalsFile).toBe(join(dir, "elsewhere", "evals.json"));
    const project = await runInputs(
      { ...base, skillPath: join(dir, "roomy"), projectRoot: join(dir, "proj") },
      "evals",
    );
    expect(project.suite.evalsFile).toBe(join(dir, "proj", "evals", "roomy", "evals.json"));
  });
});
