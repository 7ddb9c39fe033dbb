import { rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stageWorkspace, type WorkspacePlan } from "../../src/workspace/index.js";
import { stageFailure } from "./stage-failure.js";
import { listTree, makeTempDir, readText, removeDir, writeTree } from "./tree.js";

const skillMd = (name: string) => `---\nname: ${name}\ndescription: Formats reports.\n---\nDo it.\n`;

describe("stageWorkspace skill installs", () => {
  let root: string;
  let project: string;
  let skill: string;
  let dir: string;

  beforeEach(async () => {
    root = await makeTempDir("stage-skills");
    project = path.join(root, "project");
    skill = path.join(root, "source", "my-skill");
    dir = path.join(root, "runs", "run-1");
    await writeTree(root, {
      "project/README.md": "readme",
      "project/.claude/settings.json": "{}",
      "project/.claude/skills/helper/SKILL.md": skillMd("helper"),
      "project/.claude/skills/my-skill/SKILL.md": "project's copy",
      "project/.claude/skills/report-skill/SKILL.md": "project's copy under the declared name",
      "source/my-skill/SKILL.md": skillMd("my-skill"),
      "source/my-skill/references/deep/notes.md": "nested notes",
    });
  });
  afterEach(async () => removeDir(root));

  function plan(overrides: Partial<WorkspacePlan> = {}): WorkspacePlan {
    return {
      dir,
      projectRoot: project,
      skills: [{ sourceDir: skill, installName: "my-skill" }],
      skillsFolder: ".claude/skills",
      fixtures: [],
      ...overrides,
    };
  }

  it("installs files nested several folders deep in the skill", async () => {
    await stageWorkspace(plan());
    expect(await readText(dir, ".claude/skills/my-skill/references/deep/notes.md")).toBe("nested notes");
  });

  it("installs under another name as is, keeping every other copy, when names are not rewritten", async () => {
    await stageWorkspace(plan({ skills: [{ sourceDir: skill, installName: "my-skill-b" }] }));
    expect(await listTree(path.join(dir, ".claude", "skills"))).toEqual([
      "helper/SKILL.md",
      "my-skill-b/SKILL.md",
      "my-skill-b/references/deep/notes.md",
      "my-skill/SKILL.md",
      "report-skill/SKILL.md",
    ]);
    expect(await readText(dir, ".claude/skills/my-skill-b/SKILL.md")).toBe(skillMd("my-skill"));
  });

  it("removes the copies under the folder's name and the declared name when rewriting the name", async () => {
    await writeFile(path.join(skill, "SKILL.md"), skillMd("report-skill"));
    await stageWorkspace(
      plan({ skills: [{ sourceDir: skill, installName: "trig-1" }], rewriteSkillName: true }),
    );
    expect(await listTree(path.join(dir, ".claude", "skills"))).toEqual([
      "helper/SKILL.md",
      "trig-1/SKILL.md",
      "trig-1/references/deep/notes.md",
    ]);
    expect(await readText(dir, ".claude/skills/trig-1/SKILL.md")).toBe(skillMd("trig-1"));
  });

  it("renames a skill when the workspace holds no copy under its real name", async () => {
    await stageWorkspace(
      plan({
        projectRoot: undefined,
        skills: [{ sourceDir: skill, installName: "trig-1" }],
        rewriteSkillName: true,
      }),
    );
    expect(await listTree(dir)).toEqual([
      ".claude/skills/trig-1/SKILL.md",
      ".claude/skills/trig-1/references/deep/notes.md",
    ]);
  });

  it("removes nothing outside the skill's own copies for a declared name that is a path", async () => {
    for (const declared of [".", "..", "../../README.md", '"..\\\\..\\\\README.md"']) {
      await writeFile(path.join(skill, "SKILL.md"), skillMd(declared));
      await rm(dir, { recursive: true, force: true });
      await stageWorkspace(
        plan({ skills: [{ sourceDir: skill, installName: "trig-1" }], rewriteSkillName: true }),
      );
      expect(await listTree(dir)).toEqual([
        ".claude/settings.json",
        ".claude/skills/helper/SKILL.md",
        ".claude/skills/report-skill/SKILL.md",
        ".claude/skills/trig-1/SKILL.md",
        ".claude/skills/trig-1/references/deep/notes.md",
        "README.md",
      ]);
    }
  });

  it("refuses to rename a skill that has no SKILL.md", async () => {
    await rm(path.join(skill, "SKILL.md"));
    const error = await stageFailure(
      plan({ skills: [{ sourceDir: skill, installName: "trig-1" }], rewriteSkillName: true }),
    );
    expect(error.message).toBe(`Skill folder has no SKILL.md to rename: ${skill}`);
    expect(error.file).toBe(path.join(skill, "SKILL.md"));
    expect(error.hint).toBe("a skill is a folder holding a SKILL.md");
  });

  it("refuses to rename a SKILL.md without frontmatter", async () => {
    await writeFile(path.join(skill, "SKILL.md"), "name: my-skill\n");
    const error = await stageFailure(
      plan({ skills: [{ sourceDir: skill, installName: "trig-1" }], rewriteSkillName: true }),
    );
    const file = path.join(skill, "SKILL.md");
    expect(error.message).toBe(`SKILL.md has no frontmatter to rename: ${file}`);
    expect(error.file).toBe(file);
    expect(error.hint).toBe("start SKILL.md with a '---' line, then name: and description:, then '---'");
  });
});

describe("stageWorkspace with the workspace inside a layer", () => {
  let root: string;

  beforeEach(async () => {
    root = await makeTempDir("stage-inside");
    await writeTree(root, {
      "overlay/setup.md": "from the overlay",
      "files/data/a.csv": "1,2",
    });
  });
  afterEach(async () => removeDir(root));

  it("copies an overlay that holds the workspace folder without copying the workspace into itself", async () => {
    const dir = path.join(root, "overlay", "runs", "run-1");
    await stageWorkspace({
      dir,
      baseOverlay: path.join(root, "overlay"),
      skills: [],
      skillsFolder: ".claude/skills",
      fixtures: [],
    });
    expect(await listTree(dir)).toEqual(["runs/", "setup.md"]);
  });

  it("copies a folder fixture that holds the workspace folder without copying the workspace into itself", async () => {
    const dir = path.join(root, "files", "data", "run-1");
    await stageWorkspace({
      dir,
      skills: [],
      skillsFolder: ".claude/skills",
      fixtures: [{ source: path.join(root, "files", "data"), target: "data" }],
    });
    expect(await listTree(dir)).toEqual(["data/a.csv"]);
  });
});
