import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { packageSkill } from "../../src/skill/index.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "./skill-folder.js";

let temp: TempRoot;
beforeEach(async () => {
  temp = await tempRoot();
});
afterEach(() => temp.cleanup());

const skillFiles = {
  "SKILL.md": skillMd(`name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}`, "Run `scripts/rotate.sh`.\n"),
  "scripts/rotate.sh": "#!/bin/sh\necho rotate\n",
  "references/api.md": "# API — ünïcödé\n",
  "evals/evals.json": '{"evals": []}',
  ".DS_Store": "\u0000",
  "node_modules/dep/index.js": "",
  "scripts/__pycache__/x.cpython-312.pyc": "\u0000",
};

// Unix modes from the zip's central directory, which fflate's reader does not expose.
function unixModes(zip: Uint8Array): Record<string, number> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const modes: Record<string, number> = {};
  for (let at = 0; at + 46 <= zip.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    const name = strFromU8(zip.subarray(at + 46, at + 46 + nameLength));
    modes[name] = view.getUint32(at + 38, true) >>> 16;
  }
  return modes;
}

describe("packageSkill", () => {
  it("writes <name>.skill, a zip whose entries sit under <name>/, without the exclusions", async () => {
    const dir = await temp.skill("pdf-rotate", skillFiles);
    const out = join(temp.root, "dist");
    const { file, entries } = await packageSkill(dir, out);
    expect(file).toBe(join(out, "pdf-rotate.skill"));
    const expected = ["pdf-rotate/SKILL.md", "pdf-rotate/references/api.md", "pdf-rotate/scripts/rotate.sh"];
    expect(entries).toEqual(expected);

    const zip = new Uint8Array(await readFile(file));
    const unzipped = unzipSync(zip);
    expect(Object.keys(unzipped).sort()).toEqual(expected);
    expect(strFromU8(unzipped["pdf-rotate/SKILL.md"]!)).toBe(skillFiles["SKILL.md"]);
    expect(strFromU8(unzipped["pdf-rotate/references/api.md"]!)).toBe("# API — ünïcödé\n");
  });

  it.skipIf(process.platform === "win32")("keeps scripts executable", async () => {
    const dir = await temp.skill("pdf-rotate", skillFiles);
    const { file } = await packageSkill(dir, temp.root);
    const modes = unixModes(new Uint8Array(await readFile(file)));
    expect(modes["pdf-rotate/scripts/rotate.sh"]).toBe(0o100755);
    expect(modes["pdf-rotate/SKILL.md"]).toBe(0o100644);
  });

  it("writes the same bytes for the same skill", async () => {
    const dir = await temp.skill("pdf-rotate", skillFiles);
    const first = await readFile((await packageSkill(dir, join(temp.root, "one"))).file);
    const second = await readFile((await packageSkill(dir, join(temp.root, "two"))).file);
    expect(second.equals(first)).toBe(true);
  });

  it("defaults the output folder to the current directory", async () => {
    const dir = await temp.skill("pdf-rotate", skillFiles);
    const cwd = process.cwd();
    process.chdir(temp.root);
    try {
      const { file } = await packageSkill(dir);
      expect(file).toBe(join(process.cwd(), "pdf-rotate.skill"));
      expect((await stat(file)).isFile()).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });

  it("does not pack an earlier package written inside the skill folder", async () => {
    const dir = await temp.skill("pdf-rotate", skillFiles);
    await packageSkill(dir, dir);
    const { entries } = await packageSkill(dir, dir);
    expect(entries).not.toContain("pdf-rotate/pdf-rotate.skill");
  });

  it("refuses an invalid skill with INVALID_SKILL, listing the errors", async () => {
    const dir = await temp.skill("pdf-rotate", {
      "SKILL.md": skillMd("name: pdf--rotate\ndescription: Use when <x>"),
    });
    const failure = await packageSkill(dir, temp.root).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SkillgymError);
    const error = failure as SkillgymError;
    expect(error.code).toBe("INVALID_SKILL");
    expect(error.message).toContain(`must not contain "--"`);
    expect(error.message).toContain("must not contain `<` or `>`");
    expect(error.message).toContain(join(dir, "SKILL.md"));
    const lines = error.message.split("\n");
    expect(lines[0]).toBe(`cannot package ${dir}: 2 errors`);
    expect(lines.filter((line) => line.startsWith(`error: ${join(dir, "SKILL.md")}: `))).toHaveLength(2);
    await expect(stat(join(temp.root, "pdf--rotate.skill"))).rejects.toThrow();
  });

  it("reports a single error in the singular, with the fix, pointing at SKILL.md", async () => {
    const dir = await temp.skill("pdf-rotate", {
      "SKILL.md": skillMd(`name: pdf--rotate\ndescription: ${GOOD_DESCRIPTION}`),
    });
    const error = (await packageSkill(dir, temp.root).catch((failure: unknown) => failure)) as SkillgymError;
    expect(error.code).toBe("INVALID_SKILL");
    expect(error.message).toBe(
      `cannot package ${dir}: 1 error\n` +
        `error: ${join(dir, "SKILL.md")}: line 2: \`name\` "pdf--rotate" must not contain "--"\n` +
        "    fix: use lowercase letters, digits and single hyphens, e.g. `pdf-rotate`",
    );
    expect(error.hint).toBe("fix the errors listed above, then package again");
    expect(error.file).toBe(join(dir, "SKILL.md"));
  });

  it("refuses a folder without SKILL.md", async () => {
    const dir = await temp.skill("empty", { "README.md": "" });
    const error = (await packageSkill(dir, temp.root).catch((failure: unknown) => failure)) as SkillgymError;
    expect(error.code).toBe("INVALID_SKILL");
    expect(error.message).toBe(
      `cannot package ${dir}: 1 error\n` +
        `error: ${join(dir, "SKILL.md")}: the folder has no SKILL.md\n` +
        "    fix: create SKILL.md with a frontmatter (`name`, `description`) and instructions",
    );
    expect(error.file).toBe(dir);
  });

  it("refuses an output folder that cannot be created with BAD_INPUT, naming the package file", async () => {
    const dir = await temp.skill("pdf-rotate", skillFiles);
    const blocker = join(temp.root, "taken");
    await writeFile(blocker, "not a folder");
    const file = join(blocker, "pdf-rotate.skill");
    const error = (await packageSkill(dir, blocker).catch((failure: unknown) => failure)) as SkillgymError;
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toBe(`cannot write ${file}: ${(error.cause as Error).message}`);
    expect((error.cause as NodeJS.ErrnoException).code).toBe("EEXIST");
    expect(error.hint).toBe("choose an output folder you can write to");
    expect(error.file).toBe(file);
  });
});
