import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { findProjectRoot } from "../../src/suite/project-root.js";
import { tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

test("the nearest folder with .git wins over a nearer package.json", async () => {
  await writeTree(dir.path, {
    "repo/.git/": null,
    "repo/packages/app/package.json": "{}",
    "repo/packages/app/skills/s/SKILL.md": "",
  });
  expect(await findProjectRoot(join(dir.path, "repo/packages/app/skills/s"))).toBe(join(dir.path, "repo"));
});

test("a .git file (a worktree) counts, and the skill folder itself may be the root", async () => {
  await writeTree(dir.path, { "s/.git": "gitdir: elsewhere", "s/SKILL.md": "" });
  expect(await findProjectRoot(join(dir.path, "s"))).toBe(join(dir.path, "s"));
});

test("without .git, the nearest package.json", async () => {
  await writeTree(dir.path, { "app/package.json": "{}", "app/skills/s/SKILL.md": "" });
  expect(await findProjectRoot(join(dir.path, "app/skills/s"))).toBe(join(dir.path, "app"));
});

// These assume no .git or package.json above the temp folder, which holds on a normal machine.
test.each([
  ["proj/.claude/skills/s", "proj"],
  ["proj/skills/s", "proj"],
  ["proj/s", "proj"],
])("without markers, %s belongs to %s", async (skill, root) => {
  await writeTree(dir.path, { [`${skill}/SKILL.md`]: "" });
  expect(await findProjectRoot(join(dir.path, skill))).toBe(join(dir.path, root));
});

test("without .git, a package.json further up than the skill's own folder wins", async () => {
  await writeTree(dir.path, { "app/package.json": "{}", "app/tools/pack/s/SKILL.md": "" });
  expect(await findProjectRoot(join(dir.path, "app/tools/pack/s"))).toBe(join(dir.path, "app"));
});
