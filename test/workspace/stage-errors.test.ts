import { mkdir, stat, symlink } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WorkspacePlan } from "../../src/workspace/index.js";
import { stageFailure } from "./stage-failure.js";
import { makeTempDir, removeDir, writeTree } from "./tree.js";

const onWindows = process.platform === "win32";

describe("stageWorkspace refusals", () => {
  let root: string;
  let project: string;
  let skill: string;
  let dir: string;

  beforeEach(async () => {
    root = await makeTempDir("stage-errors");
    project = path.join(root, "project");
    skill = path.join(root, "skills", "my-skill");
    dir = path.join(root, "runs", "run-1");
    await writeTree(root, {
      "project/README.md": "readme",
      "overlay/extra.md": "extra",
      "skills/my-skill/SKILL.md": "---\nname: my-skill\ndescription: Does it.\n---\n",
      "files/brief.md": "the brief",
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

  it("names each kind of missing source, with the path and a hint", async () => {
    const gone = path.join(root, "gone");
    const cases: [Partial<WorkspacePlan>, string][] = [
      [{ projectRoot: gone }, "Project root"],
      [{ baseOverlay: gone }, "Base overlay"],
      [{ evalOverlay: gone }, "Per-eval overlay"],
      [{ skills: [{ sourceDir: gone, installName: "my-skill" }] }, "Skill folder"],
      [{ fixtures: [{ source: gone, target: "inputs/gone.md" }] }, "Fixture for inputs/gone.md"],
    ];
    for (const [overrides, what] of cases) {
      const error = await stageFailure(plan(overrides));
      expect(error.code).toBe("WORKSPACE");
      expect(error.message).toBe(`${what} not found: ${gone}`);
      expect(error.file).toBe(gone);
      expect(error.hint).toBe("check that the path exists and is readable");
      expect((error.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
    }
  });

  it("counts a path through a file as not found", async () => {
    const through = path.join(root, "files", "brief.md", "inner");
    const error = await stageFailure(plan({ baseOverlay: through }));
    expect(error.message).toBe(`Base overlay not found: ${through}`);
  });

  it.skipIf(onWindows)("says a source that cannot be read is unreadable, not missing", async () => {
    const loop = path.join(root, "loop");
    await symlink(loop, loop);
    const error = await stageFailure(plan({ evalOverlay: loop }));
    expect(error.message).toBe(`Per-eval overlay cannot be read: ${loop}`);
    expect(error.file).toBe(loop);
    expect(error.hint).toBe("check that the path exists and is readable");
  });

  it("refuses a file where a folder is needed", async () => {
    const file = path.join(root, "files", "brief.md");
    const error = await stageFailure(plan({ projectRoot: file }));
    expect(error.message).toBe(`Project root is not a folder: ${file}`);
    expect(error.file).toBe(file);
    expect(error.hint).toBe("point it at a folder");
  });

  it.skipIf(onWindows)("refuses a fixture that is neither a regular file nor a folder", async () => {
    const error = await stageFailure(plan({ fixtures: [{ source: "/dev/null", target: "null" }] }));
    expect(error.message).toBe("Fixture for null is not a folder: /dev/null");
    expect(error.file).toBe("/dev/null");
    expect(error.hint).toBe("point it at a regular file or a folder");
  });

  it("names the source the workspace folder holds", async () => {
    const error = await stageFailure(plan({ dir: root }));
    expect(error.message).toBe(`The workspace ${root} holds the project root ${project}`);
    expect(error.hint).toBe(
      "choose a workspace folder that is not the project, an overlay, a skill or a fixture, nor holds one",
    );
  });

  it("refuses install names that are not a folder name, before writing anything", async () => {
    for (const installName of ["", ".", ".."]) {
      const error = await stageFailure(plan({ skills: [{ sourceDir: skill, installName }] }));
      expect(error.message).toBe(`Skill install name ${JSON.stringify(installName)} is not a folder name`);
      expect(error.hint).toBe("use the skill's name, e.g. my-skill");
    }
    const error = await stageFailure(plan({ skills: [{ sourceDir: skill, installName: "a/b" }] }));
    expect(error.message).toBe('Skill install name "a/b" is not a folder name');
    await expect(stat(dir)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("names the skills folder or the fixture target that climbs out of the workspace", async () => {
    const skillsOut = await stageFailure(plan({ skillsFolder: "../skills" }));
    expect(skillsOut.message).toBe(`Skills folder "../skills" must be a relative path inside ${dir}`);
    const fixtureOut = await stageFailure(
      plan({ fixtures: [{ source: path.join(root, "files", "brief.md"), target: "../brief.md" }] }),
    );
    expect(fixtureOut.message).toBe(`Fixture target "../brief.md" must be a relative path inside ${dir}`);
  });

  it("names the errno of a workspace folder that cannot be made", async () => {
    const blocker = path.join(root, "files", "brief.md", "run-1");
    const error = await stageFailure(plan({ dir: blocker }));
    expect(error.message).toBe(`Cannot write the workspace folder ${blocker}: ENOTDIR`);
  });

  it("gives the link's path and a hint when a fixture links out of its folder", async () => {
    await mkdir(path.join(root, "suite"));
    const link = path.join(root, "suite", "brief.md");
    await symlink(path.join(root, "files", "brief.md"), link);
    const error = await stageFailure(plan({ fixtures: [{ source: link, target: "brief.md" }] }));
    expect(error.file).toBe(link);
    expect(error.hint).toBe("copy the file into the suite, skill or project folder instead of linking to it");
  });

  it("wraps a failure while copying in a workspace error naming the folder", async () => {
    // The project's README.md is a file, so the fixture's parent folder cannot be made.
    const fixtures = [{ source: path.join(root, "files", "brief.md"), target: "README.md/brief.md" }];
    const error = await stageFailure(plan({ fixtures }));
    expect(error.code).toBe("WORKSPACE");
    expect(error.message.startsWith(`Could not stage the workspace ${dir}: `)).toBe(true);
    expect(error.message).toMatch(/EEXIST|ENOTDIR/);
  });
});
