import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyBest } from "../../src/tune/index.js";
import { copyEvalsFolder, copySkillFiles, replaceSkillFiles, skillDiff } from "../../src/tune/skill-files.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { skillMd } from "./tune-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd("greeter", "Writes greeting cards.", "Old body."),
    "greeter/references/old.md": "old reference\n",
    "greeter/evals/evals.json": "{}",
    "greeter/node_modules/x/index.js": "",
    "best/greeter/SKILL.md": skillMd("greeter", "Writes greeting cards.", "New body."),
    "best/greeter/references/new.md": "new reference\n",
  });
});
afterEach(() => cleanup());

describe("skill copies", () => {
  it("copy the skill's own files only; evals/ separately when asked", async () => {
    await copySkillFiles(join(dir, "greeter"), join(dir, "copy", "greeter"));
    expect((await readdir(join(dir, "copy", "greeter"))).sort()).toEqual(["SKILL.md", "references"]);
    await copyEvalsFolder(join(dir, "greeter"), join(dir, "copy", "greeter"));
    expect(await readFile(join(dir, "copy", "greeter", "evals", "evals.json"), "utf8")).toBe("{}");
  });

  it("diff two versions file by file, added and removed files included", async () => {
    const diff = await skillDiff(join(dir, "greeter"), join(dir, "best", "greeter"), "greeter");
    expect(diff).toContain("--- a/greeter/SKILL.md\n+++ b/greeter/SKILL.md\n");
    expect(diff).toContain("-Old body.\n+New body.\n");
    expect(diff).toContain("--- a/greeter/references/old.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-old reference\n");
    expect(diff).toContain("--- /dev/null\n+++ b/greeter/references/new.md\n");
    expect(diff).not.toContain("evals");
    expect(await skillDiff(join(dir, "greeter"), join(dir, "greeter"), "greeter")).toBe("");
  });

  it("replace a skill's files, leaving its evals/ alone", async () => {
    await replaceSkillFiles(join(dir, "best", "greeter"), join(dir, "greeter"));
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toContain("New body.");
    expect(await readdir(join(dir, "greeter", "references"))).toEqual(["new.md"]);
    expect(await readFile(join(dir, "greeter", "evals", "evals.json"), "utf8")).toBe("{}");
  });
});

describe("applyBest", () => {
  async function result() {
    await copySkillFiles(join(dir, "greeter"), join(dir, "original", "greeter"));
    return {
      best: { version: "v1", score: 90, dirs: { greeter: join(dir, "best", "greeter") } },
      skillPaths: { greeter: join(dir, "greeter") },
      originalDirs: { greeter: join(dir, "original", "greeter") },
      diffs: [
        {
          name: "greeter",
          diff: await skillDiff(join(dir, "greeter"), join(dir, "best", "greeter"), "greeter"),
        },
      ],
    };
  }

  it("writes the best version over the user's skill", async () => {
    expect(await applyBest(await result())).toEqual(["greeter"]);
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toContain("New body.");
  });

  it("refuses when the user's skill changed since the tune began", async () => {
    const r = await result();
    await writeTree(dir, {
      "greeter/SKILL.md": skillMd("greeter", "Writes greeting cards.", "Edited by hand."),
    });
    await expect(applyBest(r)).rejects.toMatchObject({
      message: expect.stringMatching(/changed since the tune began/),
      file: join(dir, "greeter"),
      hint: `apply the diff in final-report.md by hand, or copy ${join(dir, "best", "greeter")} over it`,
    });
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toContain("Edited by hand.");
  });

  it("leaves a skill the tune did not change alone, even when edited since", async () => {
    const r = await result();
    await writeTree(dir, {
      "helper/SKILL.md": skillMd("helper", "Helps.", "Edited by hand."),
      "original/helper/SKILL.md": skillMd("helper", "Helps.", "Body."),
      "best/helper/SKILL.md": skillMd("helper", "Helps.", "Body."),
    });
    const both = {
      best: { ...r.best, dirs: { ...r.best.dirs, helper: join(dir, "best", "helper") } },
      skillPaths: { ...r.skillPaths, helper: join(dir, "helper") },
      originalDirs: { ...r.originalDirs, helper: join(dir, "original", "helper") },
      diffs: [...r.diffs, { name: "helper", diff: "" }],
    };
    expect(await applyBest(both)).toEqual(["greeter"]);
    expect(await readFile(join(dir, "helper", "SKILL.md"), "utf8")).toContain("Edited by hand.");
  });
});
