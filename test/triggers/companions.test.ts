import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { errorsOf, formatFinding } from "../../src/findings.js";
import { loadSkill } from "../../src/skill/index.js";
import { loadCompanions, loadInstalled } from "../../src/triggers/companions.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "alpha/SKILL.md": skillMd("alpha", "Does alpha things.", "Alpha."),
    "named-apart/SKILL.md": skillMd("beta", "Does beta things.", "Beta."),
    "broken/SKILL.md": "---\nname: Not A Valid Name!\n---\n\nBody.\n",
    "notes/SKILL.md": skillMd("notes", "The skill under test.", "Notes."),
    "file.txt": "a file, not a folder",
    "lib/gamma/SKILL.md": skillMd("gamma", "Does gamma things.", "Gamma."),
  });
  // A folder whose SKILL.md is itself a folder holds no skill.
  await mkdir(join(dir, "lib", "odd", "SKILL.md"), { recursive: true });
});
afterAll(() => cleanup());

async function refused(promise: Promise<unknown>): Promise<SkillgymError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

describe("--with-skills", () => {
  it("installs each skill under its own name, in the order given", async () => {
    expect(await loadCompanions([join(dir, "named-apart"), join(dir, "alpha")], "notes")).toEqual([
      { sourceDir: join(dir, "named-apart"), installName: "beta" },
      { sourceDir: join(dir, "alpha"), installName: "alpha" },
    ]);
    expect(await loadCompanions([], "notes")).toEqual([]);
  });

  it("refuses an invalid skill with each of its errors, and the skill under test's own name", async () => {
    const path = join(dir, "broken");
    const invalid = await refused(loadCompanions([join(dir, "alpha"), path], "notes"));
    const errors = errorsOf((await loadSkill(path)).findings);
    expect(errors.length).toBeGreaterThan(0);
    expect(invalid.code).toBe("INVALID_SKILL");
    expect(invalid.message).toBe(
      `--with-skills: ${path} is not a valid skill:\n${errors.map((f) => `  ${formatFinding(f)}`).join("\n")}`,
    );
    expect(invalid.file).toBe(path);

    const same = await refused(loadCompanions([join(dir, "notes")], "notes"));
    expect(same.code).toBe("USAGE");
    expect(same.message).toBe(
      `--with-skills: ${join(dir, "notes")} has the name of the skill under test (notes)`,
    );
    expect(same.file).toBe(join(dir, "notes"));
    expect(same.hint).toBe("leave the skill under test out of the folders installed beside it");
  });
});

describe("--installed", () => {
  it("takes the folders holding a SKILL.md file, and refuses a file or a missing path, naming it", async () => {
    expect(await loadInstalled([join(dir, "lib")], "notes")).toEqual([
      { sourceDir: join(dir, "lib", "gamma"), installName: "gamma" },
    ]);
    const file = await refused(loadInstalled([join(dir, "file.txt")], "notes"));
    expect(file.code).toBe("USAGE");
    expect(file.message).toBe(`--installed: ${join(dir, "file.txt")} is not a folder`);
    expect(file.file).toBe(join(dir, "file.txt"));
    expect(file.hint).toBe("give a folder of skill folders, e.g. a copy of ~/.claude/skills");
    const missing = await refused(loadInstalled([join(dir, "nope")], "notes"));
    expect(missing.file).toBe(join(dir, "nope"));
    expect(missing.hint).toBe("give a folder of skill folders, e.g. a copy of ~/.claude/skills");
    const empty = await refused(loadInstalled([join(dir, "alpha")], "notes"));
    expect(empty.message).toBe(
      `--installed: ${join(dir, "alpha")} holds no skill (no folder in it has a SKILL.md)`,
    );
    expect(empty.file).toBe(join(dir, "alpha"));
    expect(empty.hint).toBe(
      "give the folder that holds the skill folders, not a skill folder itself (use --with-skills for one)",
    );
  });

  it("installs a library's skills in the order of their folder names as text, not as the folder lists them", async () => {
    // Node lists a folder sorted by its UTF-8 bytes; as text (UTF-16), a name of an emoji comes before one of a
    // full-width letter, whose bytes are lower.
    const library = join(dir, "wide-lib");
    await writeTree(library, {
      "\uFF21/SKILL.md": skillMd("wide-a", "Does wide things.", "Body."),
      "\u{1F600}/SKILL.md": skillMd("smile", "Does smiling things.", "Body."),
      "plain/SKILL.md": skillMd("plain", "Does plain things.", "Body."),
    });
    expect(await loadInstalled([library], "notes")).toEqual([
      { sourceDir: join(library, "plain"), installName: "plain" },
      { sourceDir: join(library, "\u{1F600}"), installName: "smile" },
      { sourceDir: join(library, "\uFF21"), installName: "wide-a" },
    ]);
  });

  it("refuses a name installed twice, naming both folders", async () => {
    const twice = await refused(
      loadInstalled([join(dir, "lib")], "notes", [{ sourceDir: "/elsewhere/gamma", installName: "gamma" }]),
    );
    expect(twice.code).toBe("USAGE");
    expect(twice.message).toBe(
      `--installed: ${join(dir, "lib", "gamma")} has the name gamma, as /elsewhere/gamma has`,
    );
    expect(twice.file).toBe(join(dir, "lib", "gamma"));
    expect(twice.hint).toBe("install one skill of each name: leave one of the two out");
    const invalid = await refused(loadInstalled([dir], "notes"));
    expect(invalid.message).toContain(`--installed: ${join(dir, "broken")} is not a valid skill:`);
  });
});
