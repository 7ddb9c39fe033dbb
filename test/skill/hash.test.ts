import { rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashSkill } from "../../src/skill/index.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "./skill-folder.js";

let temp: TempRoot;
beforeEach(async () => {
  temp = await tempRoot();
});
afterEach(() => temp.cleanup());

const files = {
  "SKILL.md": skillMd(`name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}`),
  "scripts/rotate.py": "print('rotate')\n",
  "references/api.md": "# API\n",
};

describe("hashSkill", () => {
  it("is a sha256 hex digest, equal for equal content in different places", async () => {
    const a = await hashSkill(await temp.skill("a/pdf-rotate", files));
    const b = await hashSkill(await temp.skill("b/pdf-rotate", files));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
  });

  it("does not depend on the order files were written in", async () => {
    const reversed = Object.fromEntries(Object.entries(files).reverse());
    const a = await hashSkill(await temp.skill("a/pdf-rotate", files));
    const b = await hashSkill(await temp.skill("b/pdf-rotate", reversed));
    expect(b).toBe(a);
  });

  it("changes when a file's bytes change and its length does not", async () => {
    const dir = await temp.skill("pdf-rotate", files);
    const before = await hashSkill(dir);
    await writeFile(join(dir, "scripts", "rotate.py"), "print('ROTATE')\n");
    expect(await hashSkill(dir)).not.toBe(before);
  });

  it("changes when a file's content changes", async () => {
    const dir = await temp.skill("pdf-rotate", files);
    const before = await hashSkill(dir);
    await writeFile(join(dir, "scripts", "rotate.py"), "print('rotate!')\n");
    expect(await hashSkill(dir)).not.toBe(before);
  });

  it("changes when a file is renamed, added or removed", async () => {
    const dir = await temp.skill("pdf-rotate", files);
    const before = await hashSkill(dir);
    await writeFile(join(dir, "references", "more.md"), "");
    const added = await hashSkill(dir);
    expect(added).not.toBe(before);
    await rm(join(dir, "references", "more.md"));
    expect(await hashSkill(dir)).toBe(before);
    await rename(join(dir, "references", "api.md"), join(dir, "references", "apj.md"));
    expect(await hashSkill(dir)).not.toBe(before);
  });

  it("ignores evals/, .git/, node_modules/, __pycache__/, *.pyc and .DS_Store", async () => {
    const dir = await temp.skill("pdf-rotate", files);
    const before = await hashSkill(dir);
    await temp.skill("pdf-rotate", {
      "evals/evals.json": '{"evals": []}',
      ".git/HEAD": "ref: refs/heads/main\n",
      "node_modules/x/index.js": "",
      "scripts/__pycache__/rotate.cpython-312.pyc": "\u0000",
      "scripts/rotate.pyc": "\u0000",
      ".DS_Store": "\u0000",
      "references/.DS_Store": "\u0000",
    });
    expect(await hashSkill(dir)).toBe(before);
    await writeFile(join(dir, "evals", "evals.json"), '{"evals": [1]}');
    expect(await hashSkill(dir)).toBe(before);
  });

  it("still counts a nested folder named evals", async () => {
    const dir = await temp.skill("pdf-rotate", files);
    const before = await hashSkill(dir);
    await temp.skill("pdf-rotate", { "references/evals/notes.md": "x" });
    expect(await hashSkill(dir)).not.toBe(before);
  });

  it("fails with a clear error for a missing folder", async () => {
    await expect(hashSkill(join(temp.root, "missing"))).rejects.toMatchObject({
      name: "SkillgymError",
      code: "BAD_INPUT",
    });
  });
});
