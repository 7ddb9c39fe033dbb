import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { readSkillFile, scanSkill } from "../../src/skill/files.js";
import { type TempRoot, tempRoot } from "./skill-folder.js";

let temp: TempRoot;
beforeEach(async () => {
  temp = await tempRoot();
});
afterEach(() => temp.cleanup());

async function failureOf(promise: Promise<unknown>): Promise<SkillgymError> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(SkillgymError);
  return failure as SkillgymError;
}

describe("scanSkill", () => {
  it("refuses a missing skill folder with BAD_INPUT, naming the folder and the system error code", async () => {
    const dir = join(temp.root, "missing");
    const error = await failureOf(scanSkill(dir));
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toBe(`cannot read ${dir} (ENOENT)`);
    expect(error.file).toBe(dir);
    expect(error.hint).toBe("check that the skill folder exists and is readable");
    expect((error.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
  });
});

describe("readSkillFile", () => {
  it("names the subfolder it cannot list, not the skill folder", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": "---\nname: pdf-rotate\n---\n" });
    // A name that is not UTF-8 is listed as U+FFFD, a name no folder has.
    await mkdir(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0xff])]));
    const error = await failureOf(scanSkill(dir));
    expect(error.message).toBe(`cannot read ${join(dir, "\uFFFD")} (ENOENT)`);
    expect(error.file).toBe(join(dir, "\uFFFD"));
  });

  it("refuses a file that vanished after the scan, naming the file and the system error code", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": "---\n---\n" });
    const absolutePath = join(dir, "gone.md");
    const error = await failureOf(readSkillFile({ path: "gone.md", absolutePath, executable: false }));
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toBe(`cannot read ${absolutePath} (ENOENT)`);
    expect(error.file).toBe(absolutePath);
    expect(error.hint).toBe("check that the skill folder exists and is readable");
    expect((error.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
  });

  it("reads the bytes of a listed file", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": "---\n---\n", "refs/a.md": "# A\n" });
    const { files } = await scanSkill(dir);
    const file = files.find((f) => f.path === "refs/a.md");
    expect(file).toBeDefined();
    expect((await readSkillFile(file!)).toString("utf8")).toBe("# A\n");
  });
});
