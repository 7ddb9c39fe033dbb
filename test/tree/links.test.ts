import { mkdir, realpath, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { realInside, resolveLink, walkTree } from "../../src/tree/links.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let skill: string;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  dir = await realpath(dir);
  skill = join(dir, "x", "skill");
  // A sibling whose name starts with the skill's: a string prefix test would take it for inside.
  await writeTree(dir, {
    "x/skill/SKILL.md": "body",
    "x/skill/notes.md": "notes",
    "x/skill-evil/secret.txt": "secret",
  });
});
afterEach(() => cleanup());

describe.skipIf(process.platform === "win32")("links and the folder they must stay in", () => {
  it("calls a link into a sibling folder that shares the name's prefix outside", async () => {
    await symlink("../skill-evil/secret.txt", join(skill, "leak"));
    const resolved = await resolveLink(skill, join(skill, "leak"));
    expect(resolved).toMatchObject({ status: "outside", target: "../skill-evil/secret.txt" });
    await symlink("notes.md", join(skill, "alias"));
    expect(await resolveLink(skill, join(skill, "alias"))).toMatchObject({ status: "inside", kind: "file" });
  });

  it("never lists what such a link points to, and reports the link", async () => {
    await symlink("../skill-evil", join(skill, "evil-folder"));
    await symlink("../skill-evil/secret.txt", join(skill, "leak"));
    const walk = await walkTree(skill);
    expect(walk.files.map((f) => f.path)).toEqual(["SKILL.md", "notes.md"]);
    expect(walk.problems).toEqual([
      { path: "evil-folder", target: "../skill-evil", problem: "outside" },
      { path: "leak", target: "../skill-evil/secret.txt", problem: "outside" },
    ]);
  });

  it("says where a path really lies only when that is inside the root", async () => {
    expect(await realInside(skill, join(dir, "x", "skill-evil", "secret.txt"))).toBeUndefined();
    expect(await realInside(skill, join(skill, "notes.md"))).toBe(join(skill, "notes.md"));
    await mkdir(join(dir, "x", "skill-evil", "inner"));
    await symlink(join(dir, "x", "skill-evil", "inner"), join(skill, "inner"));
    expect(await realInside(skill, join(skill, "inner"))).toBeUndefined();
  });

  it("passes over a dangling link without calling it a problem", async () => {
    await symlink("gone.md", join(skill, "dangling"));
    const walk = await walkTree(skill);
    expect(walk.files.map((f) => f.path)).toEqual(["SKILL.md", "notes.md"]);
    expect(walk.problems).toEqual([]);
    expect(walk.leftOut).toEqual([]);
  });
});
