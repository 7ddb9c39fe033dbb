import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IterationState } from "../../src/contracts/iteration-state.js";
import { SkillgymError } from "../../src/errors.js";
import { copyEvalsFolder, copySkillFiles, replaceSkillFiles, skillDiff } from "../../src/tune/skill-files.js";
import { readTuneState, saveTuneState } from "../../src/tune/tune-state.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { skillMd } from "./tune-helpers.js";
import { iteration, measured, tuneState } from "./tune-states.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "a/greeter/SKILL.md": skillMd("greeter", "Writes cards.", "Old."),
    "a/greeter/scripts/run.sh": "#!/bin/sh\necho hi\n",
    "a/greeter/same.md": "same\n",
    "b/greeter/SKILL.md": skillMd("greeter", "Writes cards.", "New."),
    "b/greeter/same.md": "same\n",
  });
  await chmod(join(dir, "a/greeter/scripts/run.sh"), 0o755);
  await writeFile(join(dir, "a/greeter/logo.png"), Buffer.from([1, 0, 2]));
  await writeFile(join(dir, "b/greeter/logo.png"), Buffer.from([1, 0, 3]));
});
afterEach(() => cleanup());

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe("skill copies and diffs", () => {
  it("copy keeps a script executable and replaces what the target held; no evals/ is no copy", async () => {
    await writeTree(dir, { "copy/stale.md": "stale" });
    await copySkillFiles(join(dir, "a/greeter"), join(dir, "copy"));
    expect((await readdir(join(dir, "copy"), { recursive: true })).sort()).toEqual([
      "SKILL.md",
      "logo.png",
      "same.md",
      "scripts",
      "scripts/run.sh",
    ]);
    expect(await mode(join(dir, "copy/scripts/run.sh"))).toBe(0o755);
    await copyEvalsFolder(join(dir, "a/greeter"), join(dir, "copy"));
    expect(await readdir(join(dir, "copy"))).not.toContain("evals");
    // A file named evals is not a folder to copy.
    await writeFile(join(dir, "a/greeter/evals"), "not a folder");
    await copyEvalsFolder(join(dir, "a/greeter"), join(dir, "copy"));
    expect(await readdir(join(dir, "copy"))).not.toContain("evals");
  });

  it("a diff skips equal files and names binary ones", async () => {
    expect(await skillDiff(join(dir, "a/greeter"), join(dir, "b/greeter"), "greeter")).toBe(
      [
        "--- a/greeter/SKILL.md",
        "+++ b/greeter/SKILL.md",
        "@@ -3,4 +3,4 @@",
        " description: Writes cards.",
        " ---",
        " ",
        "-Old.",
        "+New.",
        "Binary files a/greeter/logo.png and b/greeter/logo.png differ",
        "--- a/greeter/scripts/run.sh",
        "+++ /dev/null",
        "@@ -1,2 +0,0 @@",
        "-#!/bin/sh",
        "-echo hi",
        "",
      ].join("\n"),
    );
    await writeFile(join(dir, "b/greeter/new.bin"), Buffer.from([0]));
    expect(await skillDiff(join(dir, "a/greeter"), join(dir, "b/greeter"), "g")).toContain(
      "Binary files /dev/null and b/g/new.bin differ\n",
    );
  });

  it("replace writes the new files executable where they were, deletes the old ones, makes new folders", async () => {
    await writeTree(dir, { "b/greeter/refs/deep/tip.md": "tip\n" });
    await chmod(join(dir, "b/greeter/same.md"), 0o755);
    await replaceSkillFiles(join(dir, "b/greeter"), join(dir, "a/greeter"));
    expect((await readdir(join(dir, "a/greeter"), { recursive: true })).sort()).toEqual([
      "SKILL.md",
      "logo.png",
      "refs",
      "refs/deep",
      "refs/deep/tip.md",
      "same.md",
      "scripts",
    ]);
    expect(await mode(join(dir, "a/greeter/same.md"))).toBe(0o755);
    expect(await readFile(join(dir, "a/greeter/refs/deep/tip.md"), "utf8")).toBe("tip\n");
  });

  it("replace refuses a folder on the way that links out of the skill, naming it", async () => {
    await mkdir(join(dir, "outside"));
    await writeTree(dir, { "b/greeter/refs/tip.md": "tip\n" });
    await symlink(join(dir, "outside"), join(dir, "a/greeter/refs"));
    const error = await replaceSkillFiles(join(dir, "b/greeter"), join(dir, "a/greeter")).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).message).toBe(
      `${join(dir, "a/greeter/refs")} is a link to ${join(dir, "outside")}, outside the skill; nothing was written`,
    );
    expect((error as SkillgymError).hint).toBe(
      "remove the link from the skill (skillgym validate lists such links), then apply again",
    );
    expect(await readdir(join(dir, "outside"))).toEqual([]);
    expect(await readFile(join(dir, "a/greeter/SKILL.md"), "utf8")).toContain("Old.");
  });
});

describe("skill copies keep what a user sees", () => {
  it("copy makes a script executable by all, and leaves other files not executable", async () => {
    await chmod(join(dir, "a/greeter/scripts/run.sh"), 0o744);
    await copySkillFiles(join(dir, "a/greeter"), join(dir, "copy"));
    expect(await mode(join(dir, "copy/scripts/run.sh"))).toBe(0o755);
    expect((await mode(join(dir, "copy/SKILL.md"))) & 0o111).toBe(0);
  });

  it("replace makes a script executable by all, and leaves other files not executable", async () => {
    await writeTree(dir, { "b/greeter/tool.sh": "#!/bin/sh\n" });
    await chmod(join(dir, "b/greeter/tool.sh"), 0o700);
    await replaceSkillFiles(join(dir, "b/greeter"), join(dir, "a/greeter"));
    expect(await mode(join(dir, "a/greeter/tool.sh"))).toBe(0o755);
    expect((await mode(join(dir, "a/greeter/SKILL.md"))) & 0o111).toBe(0);
  });

  it("a diff lists files in path order, added and removed ones among the changed", async () => {
    await writeTree(dir, { "b/greeter/added.md": "added\n", "a/greeter/zz.md": "gone\n" });
    const diff = await skillDiff(join(dir, "a/greeter"), join(dir, "b/greeter"), "g");
    expect(diff.match(/^(\+\+\+|Binary files) .*/gm)).toEqual([
      "+++ b/g/SKILL.md",
      "+++ b/g/added.md",
      "Binary files a/g/logo.png and b/g/logo.png differ",
      "+++ /dev/null",
      "+++ /dev/null",
    ]);
    expect(diff.match(/^--- .*/gm)).toEqual([
      "--- a/g/SKILL.md",
      "--- /dev/null",
      "--- a/g/scripts/run.sh",
      "--- a/g/zz.md",
    ]);
  });

  it("a diff leaves out a binary file that did not change", async () => {
    await writeFile(join(dir, "b/greeter/logo.png"), Buffer.from([1, 0, 2]));
    expect(await skillDiff(join(dir, "a/greeter"), join(dir, "b/greeter"), "g")).not.toContain("logo.png");
  });

  it("replace writes through a folder link that stays inside the skill", async () => {
    await mkdir(join(dir, "a/greeter/real-refs"));
    await symlink("real-refs", join(dir, "a/greeter/refs"));
    await writeTree(dir, { "b/greeter/refs/tip.md": "tip\n", "b/greeter/real-refs/tip.md": "tip\n" });
    await replaceSkillFiles(join(dir, "b/greeter"), join(dir, "a/greeter"));
    expect(await readFile(join(dir, "a/greeter/real-refs/tip.md"), "utf8")).toBe("tip\n");
  });
});

describe("iteration-state.json", () => {
  it("names the file and the place of what is wrong in it", async () => {
    const tune = join(dir, "tune");
    await mkdir(tune);
    const file = join(tune, "iteration-state.json");
    const missing = await readTuneState(tune).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SkillgymError);
    expect((missing as SkillgymError).message.startsWith(`${file}: `)).toBe(true);
    expect((missing as SkillgymError).hint).toBe(
      "--resume takes a folder written by `skillgym tune`, such as <skill>-workspace/tune-20260115-103000",
    );
    await writeFile(file, JSON.stringify({ ...tuneState(), max_iterations: "five" }));
    const wrong = (await readTuneState(tune).catch((e: unknown) => e)) as SkillgymError;
    expect(wrong.message.startsWith(`${file} at max_iterations: `)).toBe(true);
    expect(wrong.file).toBe(file);
  });

  it("is saved with its time, and history.json only once a version was measured", async () => {
    const state = tuneState({ iterations: [iteration(1, { status: "executing" })] });
    await saveTuneState(dir, state, new Date("2026-02-01T00:00:00.000Z"));
    expect(state.updated_at).toBe("2026-02-01T00:00:00.000Z");
    expect(IterationState.parse(await readTuneState(dir))).toEqual(IterationState.parse(state));
    expect((await readdir(dir)).sort()).toEqual(["a", "b", "iteration-state.json"]);
    state.iterations[0] = iteration(1, { evaluation: measured(50, 0.5, 50), grading_result: "baseline" });
    state.current_best = "v0";
    await saveTuneState(dir, state, new Date("2026-02-01T00:00:01.000Z"));
    expect(JSON.parse(await readFile(join(dir, "history.json"), "utf8"))).toMatchObject({
      current_best: "v0",
      iterations: [{ version: "v0", score: 50 }],
    });
  });
});
