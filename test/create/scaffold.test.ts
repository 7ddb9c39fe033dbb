import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scaffoldSkill } from "../../src/create/scaffold.js";
import { SkillgymError } from "../../src/errors.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillgym-scaffold-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const descriptionIn = async (dir: string) => {
  const text = await readFile(join(dir, "SKILL.md"), "utf8");
  return JSON.parse(/^description: (.*)$/m.exec(text)?.[1] ?? "null") as string;
};

const refusal = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("scaffoldSkill", () => {
  it("writes a SKILL.md titled after the folder, with a default description that says when to use it", async () => {
    const dir = join(root, "csv-tables");
    const made = await scaffoldSkill({ dir });
    expect(made).toEqual({
      dir,
      name: "csv-tables",
      files: [
        "SKILL.md",
        "scripts/.gitkeep",
        "references/README.md",
        "evals/evals.json",
        "evals/triggers.json",
        "evals/sim-script.json",
      ],
    });
    expect(await readFile(join(dir, "SKILL.md"), "utf8")).toBe(`---
name: csv-tables
description: "Describe what csv tables does in one sentence. Use when the user asks to csv tables or mentions it."
---

# Csv tables

## When to use
- The situations in which this skill applies, and the ones in which it does not.

## Workflow
1. The first step the agent takes.
2. The next step, with the commands or files it uses (scripts/ holds helpers, references/ holds long docs).
3. How the agent checks its own result before finishing.

## Output
- What the result looks like: files, their names and their format.
`);
  });

  it("writes an empty scripts/.gitkeep and a one-line references/README.md", async () => {
    const dir = join(root, "csv-tables");
    await scaffoldSkill({ dir });
    expect(await readFile(join(dir, "scripts", ".gitkeep"), "utf8")).toBe("");
    expect(await readFile(join(dir, "references", "README.md"), "utf8")).toBe(
      "Long reference documents the skill loads only when needed.\n",
    );
  });

  it("keeps a description that already says when to use the skill", async () => {
    const dir = join(root, "yaml-lint");
    const description = "Lints YAML files. Use when the user asks to check YAML syntax.";
    await scaffoldSkill({ dir, description });
    expect(await descriptionIn(dir)).toBe(description);
  });

  it("completes a description that does not say when to use the skill", async () => {
    const dir = join(root, "yaml-lint");
    await scaffoldSkill({ dir, description: "Lints YAML files!  " });
    expect(await descriptionIn(dir)).toBe("Lints YAML files. Use when the user asks for it.");
  });

  it("completes a description only while the addition fits within 1024 characters", async () => {
    const fits = join(root, "short-one");
    await scaffoldSkill({ dir: fits, description: "x".repeat(964) });
    expect(await descriptionIn(fits)).toBe(`${"x".repeat(964)}. Use when the user asks for it.`);
    const tooLong = join(root, "long-one");
    await scaffoldSkill({ dir: tooLong, description: "x".repeat(965) });
    expect(await descriptionIn(tooLong)).toBe("x".repeat(965));
  });

  it("accepts a description of exactly 1024 characters", async () => {
    const dir = join(root, "long-one");
    await scaffoldSkill({ dir, description: "x".repeat(1024) });
    expect(await descriptionIn(dir)).toBe("x".repeat(1024));
  });

  for (const [label, description] of [
    ["empty", ""],
    ["blank", "   "],
    ["overlong", "x".repeat(1025)],
  ] as const) {
    it(`refuses an ${label} description before writing anything`, async () => {
      const dir = join(root, "csv-tables");
      const error = await refusal(scaffoldSkill({ dir, description }));
      expect(error).toBeInstanceOf(SkillgymError);
      expect(error).toMatchObject({
        code: "BAD_INPUT",
        message: `the description must be 1–1024 characters, not ${description.length}`,
      });
      await expect(readdir(dir)).rejects.toThrow();
    });
  }

  it("refuses a name that differs from its folder, with the rule's hint and the folder", async () => {
    const dir = join(root, "good-name");
    const error = await refusal(scaffoldSkill({ dir, name: "other-name" }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "BAD_INPUT",
      hint: 'rename the folder to "other-name" (the Agent Skills spec asks for a match), or set `name: good-name`',
      file: dir,
    });
    expect((error as Error).message).toMatch(/^cannot scaffold "other-name": `name` "other-name" differs/);
  });

  it("refuses to overwrite an existing file, naming it, with a hint", async () => {
    const dir = join(root, "csv-tables");
    await scaffoldSkill({ dir });
    const error = await refusal(scaffoldSkill({ dir }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "BAD_INPUT",
      message: `${join(dir, "SKILL.md")} already exists; init never overwrites`,
      hint: "choose an empty folder, or remove the file",
      file: join(dir, "SKILL.md"),
    });
  });

  it("never writes through a dangling link in the way", async () => {
    const dir = join(root, "csv-tables");
    await mkdir(join(dir, "scripts"), { recursive: true });
    await symlink(join(root, "elsewhere.txt"), join(dir, "scripts", ".gitkeep"));
    await expect(scaffoldSkill({ dir })).rejects.toThrow(/EEXIST/);
    expect(await readdir(root)).toEqual(["csv-tables"]);
  });
});
