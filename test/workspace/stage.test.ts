import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { stageWorkspace, type WorkspacePlan } from "../../src/workspace/index.js";
import { fingerprintTree, listTree, makeTempDir, readText, removeDir, writeTree } from "./tree.js";

const onWindows = process.platform === "win32";
const skillMd =
  "---\nname: my-skill\ndescription: Formats reports. Use when asked for a report.\n---\nDo it.\n";

describe("stageWorkspace", () => {
  let root: string;
  let project: string;
  let suite: string;
  let skill: string;
  let dir: string;

  beforeEach(async () => {
    root = await makeTempDir("stage");
    project = path.join(root, "project");
    suite = path.join(project, "evals", "my-skill");
    skill = path.join(project, "skills", "my-skill");
    dir = path.join(root, "runs", "run-1");
    await writeTree(project, {
      "README.md": "project readme",
      "config.yaml": "from: project",
      "layered.txt": "project",
      ".gitignore": "*.secret\n",
      "api.secret": "token",
      ".git/HEAD": "ref: refs/heads/main",
      "node_modules/dep/index.js": "dep",
      "my-skill-workspace/iteration-1/eval-1/with_skill/run-1/outputs/report.md": "old output",
      "skills/my-skill/SKILL.md": skillMd,
      "skills/my-skill/scripts/run.sh": "#!/bin/sh\necho run\n",
      "skills/my-skill/evals/evals.json": '{"evals":[]}',
      "evals/my-skill/evals.json": '{"evals":[]}',
      "evals/my-skill/setup/layered.txt": "base overlay",
      "evals/my-skill/setup/base-only.txt": "base",
      "evals/my-skill/setup/.claude/skills/my-skill/SKILL.md": "overlay's stale copy",
      "evals/my-skill/setup/.claude/skills/my-skill/stale.md": "only in the overlay's copy",
      "evals/my-skill/setup/.claude/skills/helper/SKILL.md": "---\nname: helper\n---\n",
      "evals/my-skill/A1/setup/layered.txt": "eval overlay",
      "evals/my-skill/files/brief.md": "the brief",
      "evals/my-skill/files/folder/a.csv": "1,2",
    });
  });
  afterEach(async () => removeDir(root));

  function plan(overrides: Partial<WorkspacePlan> = {}): WorkspacePlan {
    return {
      dir,
      projectRoot: project,
      projectExcludes: [suite],
      baseOverlay: path.join(suite, "setup"),
      evalOverlay: path.join(suite, "A1", "setup"),
      skills: [{ sourceDir: skill, installName: "my-skill" }],
      skillsFolder: ".claude/skills",
      fixtures: [
        { source: path.join(suite, "files", "brief.md"), target: "inputs/brief.md" },
        { source: path.join(suite, "files", "folder"), target: "data" },
      ],
      ...overrides,
    };
  }

  it("builds the workspace in SPEC order, later layers winning and the skill under test winning over all", async () => {
    await stageWorkspace(plan());
    expect(await listTree(dir)).toEqual([
      ".claude/skills/helper/SKILL.md",
      ".claude/skills/my-skill/SKILL.md",
      ".claude/skills/my-skill/scripts/run.sh",
      ".gitignore",
      "README.md",
      "base-only.txt",
      "config.yaml",
      "data/a.csv",
      "evals/",
      "inputs/brief.md",
      "layered.txt",
      "skills/",
    ]);
    expect(await readText(dir, "layered.txt")).toBe("eval overlay");
    expect(await readText(dir, ".claude/skills/my-skill/SKILL.md")).toBe(skillMd);
  });

  it("lets the base overlay win over the project when there is no per-eval overlay", async () => {
    await stageWorkspace(plan({ evalOverlay: undefined, fixtures: [] }));
    expect(await readText(dir, "layered.txt")).toBe("base overlay");
  });

  it("lets a fixture win over every other layer at its path", async () => {
    await stageWorkspace(
      plan({ fixtures: [{ source: path.join(suite, "files", "brief.md"), target: "layered.txt" }] }),
    );
    expect(await readText(dir, "layered.txt")).toBe("the brief");
  });

  it("stages no skill at all for a without_skill run, even when the project holds it", async () => {
    await stageWorkspace(plan({ skills: [], projectExcludes: [suite, skill], baseOverlay: undefined }));
    const files = await listTree(dir);
    expect(files.filter((f) => f.includes("my-skill"))).toEqual([]);
  });

  it("leaves the user's project, skill, overlays and fixtures unchanged when the run writes everywhere", async () => {
    const before = await fingerprintTree(project);
    await stageWorkspace(plan());
    for (const rel of [
      "README.md",
      "layered.txt",
      ".claude/skills/my-skill/SKILL.md",
      "inputs/brief.md",
      "data/a.csv",
    ]) {
      await writeFile(path.join(dir, ...rel.split("/")), "overwritten by the agent");
    }
    await writeFile(path.join(dir, "new.txt"), "created by the agent");
    expect(await fingerprintTree(project)).toBe(before);
  });

  it.skipIf(onWindows)("keeps the executable bit of skill scripts and project files", async () => {
    await chmod(path.join(skill, "scripts", "run.sh"), 0o755);
    await writeTree(project, { "tools/build.sh": "#!/bin/sh\n" });
    await chmod(path.join(project, "tools", "build.sh"), 0o750);
    await stageWorkspace(plan());
    expect(
      (await stat(path.join(dir, ".claude", "skills", "my-skill", "scripts", "run.sh"))).mode & 0o777,
    ).toBe(0o755);
    expect((await stat(path.join(dir, "tools", "build.sh"))).mode & 0o777).toBe(0o750);
  });

  it("installs the skill under a synthetic name and rewrites only its name line, keeping CRLF and BOM", async () => {
    const original =
      "\uFEFF---\r\nname: my-skill\r\ndescription: Formats reports – ünïcode.\r\n---\r\n\r\nBody\r\n";
    await writeFile(path.join(skill, "SKILL.md"), original);
    await stageWorkspace(
      plan({ skills: [{ sourceDir: skill, installName: "my-skill-trig-3f9a" }], rewriteSkillName: true }),
    );
    const installed = await readFile(
      path.join(dir, ".claude", "skills", "my-skill-trig-3f9a", "SKILL.md"),
      "utf8",
    );
    expect(installed).toBe(original.replace("name: my-skill\r\n", "name: my-skill-trig-3f9a\r\n"));
    expect(await readFile(path.join(skill, "SKILL.md"), "utf8")).toBe(original);
    // the overlay's real-named copy is removed, so only the synthetic one can trigger
    expect(await listTree(path.join(dir, ".claude", "skills"))).toEqual([
      "helper/SKILL.md",
      "my-skill-trig-3f9a/SKILL.md",
      "my-skill-trig-3f9a/scripts/run.sh",
    ]);
  });

  it("stages a folder fixture where an overlay left a file, given a relative source path", async () => {
    const relativeSource = path.relative(process.cwd(), path.join(suite, "files", "folder"));
    await stageWorkspace(plan({ fixtures: [{ source: relativeSource, target: "layered.txt" }] }));
    expect(await readText(dir, "layered.txt/a.csv")).toBe("1,2");
  });

  it("names the missing fixture", async () => {
    const missing = path.join(suite, "files", "gone.md");
    const error = await stageWorkspace(plan({ fixtures: [{ source: missing, target: "gone.md" }] })).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error.code).toBe("WORKSPACE");
    expect(error.message).toContain(missing);
    expect(error.message).toContain("Fixture");
  });

  it("names a missing overlay before copying anything", async () => {
    const missing = path.join(suite, "B2", "setup");
    const error = await stageWorkspace(plan({ evalOverlay: missing })).catch((e) => e);
    expect(error).toMatchObject({ code: "WORKSPACE" });
    expect(error.message).toContain(missing);
    await expect(stat(dir)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("reports an unwritable workspace folder with a hint", async () => {
    const blocker = path.join(root, "a-file");
    await writeFile(blocker, "not a folder");
    const error = await stageWorkspace(plan({ dir: path.join(blocker, "run-1") })).catch((e) => e);
    expect(error).toMatchObject({ code: "WORKSPACE" });
    expect(error.message).toContain(path.join(blocker, "run-1"));
    expect(error.hint).toMatch(/--workspace/);
  });

  it("refuses a workspace folder that is, or holds, the project", async () => {
    await expect(stageWorkspace(plan({ dir: project }))).rejects.toMatchObject({ code: "WORKSPACE" });
    await expect(stageWorkspace(plan({ dir: root }))).rejects.toMatchObject({ code: "WORKSPACE" });
  });

  it("refuses fixture targets and install names that climb out of the workspace", async () => {
    const brief = path.join(suite, "files", "brief.md");
    await expect(
      stageWorkspace(plan({ fixtures: [{ source: brief, target: "../escape.md" }] })),
    ).rejects.toMatchObject({ code: "WORKSPACE" });
    await expect(
      stageWorkspace(plan({ skills: [{ sourceDir: skill, installName: "../x" }] })),
    ).rejects.toMatchObject({
      code: "WORKSPACE",
    });
    await expect(stat(path.join(root, "runs", "escape.md"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("copies a workspace folder placed inside the project without copying it into itself", async () => {
    const inside = path.join(project, "tmp-runs", "run-1");
    await stageWorkspace(plan({ dir: inside }));
    expect((await listTree(inside)).filter((f) => f.startsWith("tmp-runs"))).toEqual(["tmp-runs/"]);
  });
});
