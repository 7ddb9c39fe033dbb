import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { locateTriggersFile } from "../../src/report/triggers-file.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "../skill/skill-folder.js";

// Which triggers.json `skillgym view --triggers <skill>` reviews: the suite's, wherever discovery finds it, else a
// new one in the skill's own evals/ folder.
let temp: TempRoot;
const skillFiles = { "SKILL.md": skillMd(`name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}`) };
const triggers = JSON.stringify([{ query: "rotate page 2", should_trigger: true }]);
const evals = JSON.stringify({ skill_name: "pdf-rotate", evals: [] });

beforeEach(async () => {
  temp = await tempRoot();
  await mkdir(join(temp.root, ".git"));
});

afterEach(async () => {
  await temp.cleanup();
});

describe("locateTriggersFile", () => {
  it("names evals/triggers.json in the skill folder when the skill has no suite yet", async () => {
    const dir = await temp.skill("skills/pdf-rotate", skillFiles);
    expect(await locateTriggersFile(dir)).toBe(join(dir, "evals", "triggers.json"));
  });

  it("names the suite's trigger file, whatever its name", async () => {
    const dir = await temp.skill("skills/pdf-rotate", { ...skillFiles, "evals/eval_set.json": triggers });
    expect(await locateTriggersFile(dir)).toBe(join(dir, "evals", "eval_set.json"));
  });

  it("names the trigger file of a suite kept in the project's evals folder", async () => {
    const dir = await temp.skill("skills/pdf-rotate", skillFiles);
    await mkdir(join(temp.root, "evals", "pdf-rotate"), { recursive: true });
    await writeFile(join(temp.root, "evals", "pdf-rotate", "trigger-eval.json"), triggers);
    expect(await locateTriggersFile(dir)).toBe(join(temp.root, "evals", "pdf-rotate", "trigger-eval.json"));
  });

  it("puts a new triggers.json next to a suite's evals.json", async () => {
    const dir = await temp.skill("skills/pdf-rotate", skillFiles);
    await mkdir(join(temp.root, "evals", "pdf-rotate"), { recursive: true });
    await writeFile(join(temp.root, "evals", "pdf-rotate", "evals.json"), evals);
    expect(await locateTriggersFile(dir)).toBe(join(temp.root, "evals", "pdf-rotate", "triggers.json"));
  });

  it("refuses a folder that is not a skill, naming every problem and what to pass", async () => {
    const dir = await temp.skill("skills/not-a-skill", { "README.md": "# nothing\n" });
    const error = await locateTriggersFile(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "INVALID_SKILL",
      hint: "pass the skill folder (the one with SKILL.md) with --triggers",
    });
    expect((error as Error).message).toMatch(/^not a skill: error: .*not-a-skill.*SKILL\.md/s);
  });

  it("joins several problems one a line", async () => {
    const dir = await temp.skill("skills/broken", {
      "SKILL.md": "---\nname: a\nname: b\ndescription: c\ndescription: d\n---\n",
    });
    const error = (await locateTriggersFile(dir).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(SkillgymError);
    const lines = error.message.split("\n").filter((line) => !line.startsWith("    fix: "));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^not a skill: error: .*SKILL\.md: line 3, column 1: invalid YAML in the frontmatter: /,
    );
    expect(lines[1]).toMatch(/^error: .*SKILL\.md: line 5, column 1: invalid YAML in the frontmatter: /);
  });
});
