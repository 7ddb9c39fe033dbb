import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { loadSkill } from "../../src/skill/index.js";
import { checkDescription, MAX_DESCRIPTION, skillWithDescription } from "../../src/triggers/description.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

function refusal(description: string): SkillgymError {
  try {
    checkDescription(description);
  } catch (e) {
    expect(e).toBeInstanceOf(SkillgymError);
    return e as SkillgymError;
  }
  return expect.unreachable(`${JSON.stringify(description)} was accepted`);
}

describe("--description", () => {
  it("accepts 1 to 1024 characters, counted as characters, not UTF-16 units", () => {
    expect(() => checkDescription("x")).not.toThrow();
    expect(() => checkDescription("x".repeat(MAX_DESCRIPTION))).not.toThrow();
    expect(() => checkDescription("🎵".repeat(MAX_DESCRIPTION))).not.toThrow();
    expect(MAX_DESCRIPTION).toBe(1024);
  });

  it("refuses an empty, a too long, or a bracketed one, saying every reason and what to give", () => {
    const blank = refusal("  \n ");
    expect(blank.code).toBe("BAD_INPUT");
    expect(blank.message).toBe("--description is not a valid skill description: it is empty");
    expect(blank.hint).toBe("give 1–1024 characters without < or >");
    expect(refusal("").message).toContain("it is empty");
    expect(refusal("x".repeat(1025)).message).toBe(
      "--description is not a valid skill description: it has 1025 characters (at most 1024)",
    );
    expect(refusal("🎵".repeat(1025)).message).toContain("it has 1025 characters");
    expect(refusal("use <b>").message).toBe(
      "--description is not a valid skill description: it contains < or >",
    );
    expect(refusal("a > b").message).toContain("it contains < or >");
    expect(refusal(`<${"y".repeat(1024)}`).message).toBe(
      "--description is not a valid skill description: it has 1025 characters (at most 1024); it contains < or >",
    );
  });
});

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "notes/SKILL.md": "---\nname: notes\ndescription: Old words.\nlicense: MIT\n---\n\nBody line.\n",
    "notes/evals/triggers.json": "[]",
    "notes/evals-guide.md": "kept\n",
    "notes/references/evals/howto.md": "kept too\n",
    "notes/scripts/run.sh": "echo hi\n",
    "bare/SKILL.md": skillMd("bare", "A bare skill.", "Bare."),
  });
});
afterAll(() => cleanup());

describe("a copy of the skill with another description", () => {
  it("changes only the description, leaves the suite out, and leaves the user's skill as it was", async () => {
    const { skill } = await loadSkill(join(dir, "notes"));
    const copy = await skillWithDescription(skill!, "New: words.", join(dir, "copy"));
    expect(copy).toBe(join(dir, "copy", "notes"));
    expect(await readFile(join(copy, "SKILL.md"), "utf8")).toBe(
      '---\nname: notes\ndescription: "New: words."\nlicense: MIT\n---\n\nBody line.\n',
    );
    expect((await readdir(copy)).sort()).toEqual(["SKILL.md", "evals-guide.md", "references", "scripts"]);
    expect(await readFile(join(copy, "references", "evals", "howto.md"), "utf8")).toBe("kept too\n");
    expect(await readFile(join(copy, "scripts", "run.sh"), "utf8")).toBe("echo hi\n");
    const reloaded = await loadSkill(copy);
    expect(reloaded.skill?.description).toBe("New: words.");
    expect(await readFile(join(dir, "notes", "SKILL.md"), "utf8")).toContain("description: Old words.");
  });

  it("checks the description first, and refuses a SKILL.md without frontmatter", async () => {
    const { skill } = await loadSkill(join(dir, "bare"));
    await expect(skillWithDescription(skill!, "<no>", join(dir, "refused"))).rejects.toThrow(
      /contains < or >/,
    );
    await expect(readdir(join(dir, "refused"))).rejects.toThrow();
    await writeTree(dir, { "bare/SKILL.md": "No frontmatter at all.\n" });
    const error = await skillWithDescription(skill!, "Fine.", join(dir, "copy-bare")).then(
      () => undefined,
      (e: unknown) => e as SkillgymError,
    );
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error?.code).toBe("INVALID_SKILL");
    expect(error?.message).toBe(`${skill!.skillMdPath}: no frontmatter to change`);
  });
});
