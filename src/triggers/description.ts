import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SkillgymError } from "../errors.js";
import { parseFrontmatter } from "../skill/frontmatter.js";
import type { Skill } from "../skill/index.js";
import { copyTree } from "../workspace/index.js";

export const MAX_DESCRIPTION = 1024;

export function checkDescription(description: string): void {
  const problems: string[] = [];
  if (description.trim() === "") problems.push("it is empty");
  if ([...description].length > MAX_DESCRIPTION)
    problems.push(`it has ${[...description].length} characters (at most ${MAX_DESCRIPTION})`);
  if (/[<>]/.test(description)) problems.push("it contains < or >");
  if (problems.length > 0) {
    throw new SkillgymError(
      "BAD_INPUT",
      `--description is not a valid skill description: ${problems.join("; ")}`,
      {
        hint: "give 1–1024 characters without < or >",
      },
    );
  }
}

/** A copy of the skill whose SKILL.md carries another description; the user's skill is left as it is. */
export async function skillWithDescription(skill: Skill, description: string, into: string): Promise<string> {
  checkDescription(description);
  const dir = join(into, skill.name);
  // Skipping the folder skips all it holds: the copy never looks inside it.
  await copyTree(skill.dir, dir, { skip: (rel) => rel === "evals" });
  const text = await readFile(skill.skillMdPath, "utf8");
  const parsed = parseFrontmatter(text, skill.skillMdPath);
  if (!parsed.frontmatter)
    throw new SkillgymError("INVALID_SKILL", `${skill.skillMdPath}: no frontmatter to change`);
  const document = parsed.frontmatter.document;
  document.set("description", description);
  await writeFile(
    join(dir, "SKILL.md"),
    `---\n${document.toString()}---\n${parsed.frontmatter.body}`,
    "utf8",
  );
  return dir;
}
