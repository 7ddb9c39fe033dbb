import { readFile, symlink } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stageWorkspace, type WorkspacePlan } from "../../src/workspace/index.js";
import { listTree, makeTempDir, removeDir, writeTree } from "./tree.js";

const SECRET = "root:x:0:0:the outside secret";
const skillMd =
  "---\nname: my-skill\ndescription: Formats reports. Use when asked for a report.\n---\nDo it.\n";

describe("staging never copies what a link takes outside its folder", () => {
  let root: string;
  let outside: string;
  let project: string;
  let suite: string;
  let skill: string;
  let dir: string;

  beforeEach(async () => {
    root = await makeTempDir("links");
    outside = path.join(root, "outside");
    project = path.join(root, "project");
    suite = path.join(project, "evals", "my-skill");
    skill = path.join(project, "skills", "my-skill");
    dir = path.join(root, "runs", "run-1");
    await writeTree(outside, { passwd: SECRET, "ssh/id_rsa": SECRET });
    await writeTree(project, {
      "README.md": "readme",
      "skills/my-skill/SKILL.md": skillMd,
      "skills/my-skill/.skillignore": "drafts/\n",
      "skills/my-skill/drafts/x.md": "draft",
      "skills/my-skill/.env": "API_KEY=sk-secret",
      "skills/my-skill/.env.example": "API_KEY=",
      "evals/my-skill/setup/ok.md": "overlay",
      "evals/my-skill/files/brief.md": "the brief",
    });
  });
  afterEach(async () => removeDir(root));

  function plan(overrides: Partial<WorkspacePlan> = {}): WorkspacePlan {
    return {
      dir,
      projectRoot: project,
      projectExcludes: [suite],
      baseOverlay: path.join(suite, "setup"),
      skills: [{ sourceDir: skill, installName: "my-skill" }],
      skillsFolder: ".claude/skills",
      fixtures: [{ source: path.join(suite, "files", "brief.md"), target: "brief.md" }],
      ...overrides,
    };
  }

  async function everything(): Promise<string> {
    const texts = await Promise.all(
      (await listTree(dir))
        .filter((p) => !p.endsWith("/"))
        .map((p) => readFile(path.join(dir, p), "utf8").catch(() => "")),
    );
    return texts.join("\n");
  }

  it("leaves out links out of the project, the overlays and the skill, and the skill's left-out files", async () => {
    await symlink(path.join(outside, "passwd"), path.join(project, "passwd"));
    await symlink(path.join(outside, "ssh"), path.join(suite, "setup", "keys"));
    await symlink(path.join(outside, "passwd"), path.join(skill, "passwd.txt"));
    await symlink("ok.md", path.join(suite, "setup", "alias.md"));
    await stageWorkspace(plan());
    expect(await listTree(dir)).toEqual([
      ".claude/skills/my-skill/.env.example",
      ".claude/skills/my-skill/.skillignore",
      ".claude/skills/my-skill/SKILL.md",
      "README.md",
      "alias.md",
      "brief.md",
      "evals/",
      "ok.md",
      "skills/",
    ]);
    expect(await everything()).not.toContain(SECRET);
  });

  it("refuses a fixture that is a link out of its folder, before copying anything", async () => {
    await symlink(path.join(outside, "passwd"), path.join(suite, "files", "passwd"));
    const fixtures = [{ source: path.join(suite, "files", "passwd"), target: "passwd" }];
    await expect(stageWorkspace(plan({ fixtures }))).rejects.toMatchObject({
      code: "WORKSPACE",
      message: expect.stringContaining(`Fixture for passwd is a link out of ${path.join(suite, "files")}`),
    });
    expect(await listTree(dir).catch(() => [])).toEqual([]);
  });

  it("refuses a folder fixture that is a link out of the root it was found in, and copies one that stays", async () => {
    await symlink(outside, path.join(suite, "files", "etc"));
    const out = [{ source: path.join(suite, "files", "etc"), root: suite, target: "etc" }];
    await expect(stageWorkspace(plan({ fixtures: out }))).rejects.toThrow(/is a link out of/);
    await symlink(path.join(suite, "files"), path.join(suite, "linked"));
    const inside = [{ source: path.join(suite, "linked", "brief.md"), root: suite, target: "brief.md" }];
    await stageWorkspace(plan({ fixtures: inside }));
    expect(await readFile(path.join(dir, "brief.md"), "utf8")).toBe("the brief");
  });
});
