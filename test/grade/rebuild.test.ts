import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rebuildWorkspace, recordedChanges } from "../../src/grade/rebuild.js";
import { loadInputs } from "../../src/run/load-inputs.js";
import type { RunWorkspaceInput } from "../../src/run/workspace-plan.js";
import { tempRoot, writeCardSkill, writeFiles, writeRun } from "./card-iteration.js";

let root: string;
let cleanup: () => Promise<void>;
let plan: (dir: string, configuration: RunWorkspaceInput["configuration"]) => RunWorkspaceInput;

beforeAll(async () => {
  ({ root, cleanup } = await tempRoot());
  const skillDir = await writeCardSkill(root);
  await writeFiles(join(root, "card-v1"), {
    "SKILL.md": "---\nname: card\ndescription: Old card.\n---\n\nOld.\n",
  });
  const { skill, suite } = await loadInputs({ skillPath: skillDir, projectRoot: root, need: "evals" });
  plan = (dir, configuration) => ({
    dir: join(root, dir),
    configuration,
    eval: suite.evals[0]!,
    skill: { dir: skill.dir, name: skill.name },
    baselineSkillDir: join(root, "card-v1"),
    excludePaths: [skill.dir, suite.dir],
    skillsFolder: ".claude/skills",
  });
});
afterAll(() => cleanup());

async function tree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    files[relative(dir, abs).split("\\").join("/")] = await readFile(abs, "utf8");
  }
  return files;
}

describe("recordedChanges", () => {
  it("reads the files a run created, modified and deleted from outputs/metrics.json", async () => {
    const runDir = join(root, "runs", "changes");
    await writeRun(runDir, {
      outputs: { "card.txt": "Hello" },
      created: ["card.txt", "notes/a.md"],
      modified: ["evals/files/names.txt"],
      deleted: ["old.txt"],
    });
    expect(await recordedChanges(runDir)).toEqual({
      created: ["card.txt", "notes/a.md"],
      modified: ["evals/files/names.txt"],
      deleted: ["old.txt"],
    });
  });

  it("keeps only the paths of lists, and nothing of a run without metrics", async () => {
    const runDir = join(root, "runs", "odd");
    await writeFiles(runDir, {
      "outputs/metrics.json": JSON.stringify({
        files_modified: ["a.txt", 3, null, "b/c.txt"],
        files_deleted: "x.txt",
      }),
    });
    expect(await recordedChanges(runDir)).toEqual({
      created: [],
      modified: ["a.txt", "b/c.txt"],
      deleted: [],
    });
    expect(await recordedChanges(join(root, "runs", "none"))).toEqual({
      created: [],
      modified: [],
      deleted: [],
    });
  });
});

describe("rebuildWorkspace", () => {
  it("stages the run's workspace again, then lays the run's changes over it", async () => {
    const runDir = join(root, "runs", "with");
    await writeRun(runDir, {
      outputs: {
        "card.txt": "Hello Ada\n",
        "deep/nested/note.md": "note",
        "evals/files/names.txt": "Ada\n",
        "metrics.json": "{}",
      },
      created: ["card.txt", "deep/nested/note.md", "metrics.json"],
      modified: ["evals/files/names.txt"],
      deleted: [".claude/skills/card/SKILL.md"],
    });
    const changes = await rebuildWorkspace(runDir, plan("ws-with", "with_skill"));
    expect(changes).toEqual({
      created: ["card.txt", "deep/nested/note.md", "metrics.json"],
      modified: ["evals/files/names.txt"],
      deleted: [".claude/skills/card/SKILL.md"],
    });
    // The recorded metrics.json is skillgym's own, never the agent's file; the deleted SKILL.md is gone again.
    expect(await tree(join(root, "ws-with"))).toEqual({
      "card.txt": "Hello Ada\n",
      "deep/nested/note.md": "note",
      "evals/files/names.txt": "Ada\n",
    });
  });

  it("removes a folder the run deleted, and passes over a deleted path the staging no longer holds", async () => {
    const runDir = join(root, "runs", "deleted");
    await writeRun(runDir, { deleted: ["evals/files", "never-there.txt"] });
    await rebuildWorkspace(runDir, plan("ws-deleted", "without_skill"));
    expect(await tree(join(root, "ws-deleted"))).toEqual({});
  });

  it("stages the skill under test for a with_skill run and the baseline for an old_skill one", async () => {
    const runDir = join(root, "runs", "quiet");
    await writeRun(runDir, {});
    await rebuildWorkspace(runDir, plan("ws-skill", "with_skill"));
    expect(await tree(join(root, "ws-skill"))).toEqual({
      // The installed skill leaves its evals out: the agent never sees the suite.
      ".claude/skills/card/SKILL.md": expect.stringContaining("Write card.txt."),
      "evals/files/names.txt": "Ada\nGrace\n",
    });
    await rebuildWorkspace(runDir, plan("ws-old", "old_skill"));
    expect(await tree(join(root, "ws-old"))).toEqual({
      ".claude/skills/card/SKILL.md": expect.stringContaining("Old."),
      "evals/files/names.txt": "Ada\nGrace\n",
    });
    await rebuildWorkspace(runDir, plan("ws-without", "without_skill"));
    expect(await tree(join(root, "ws-without"))).toEqual({ "evals/files/names.txt": "Ada\nGrace\n" });
  });
});
