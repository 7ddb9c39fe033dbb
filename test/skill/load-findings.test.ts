import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSkill } from "../../src/skill/index.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "./skill-folder.js";

let temp: TempRoot;
beforeEach(async () => {
  temp = await tempRoot();
});
afterEach(() => temp.cleanup());

const goodSkillMd = skillMd(`name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}`);

describe("loadSkill on a path that is not a readable skill folder", () => {
  it("reports a missing folder", async () => {
    const path = join(temp.root, "missing");
    expect(await loadSkill(path)).toEqual({
      skill: undefined,
      findings: [
        {
          severity: "error",
          code: "skill-not-found",
          file: path,
          message: "no such skill folder",
          hint: "pass the path of a folder that holds a SKILL.md",
        },
      ],
    });
  });

  it("reports a path that cannot be read, with the system error code", async () => {
    await writeFile(join(temp.root, "plain"), "x");
    const path = join(temp.root, "plain", "skill");
    expect((await loadSkill(path)).findings).toEqual([
      {
        severity: "error",
        code: "skill-unreadable",
        file: path,
        message: "cannot read the skill folder (ENOTDIR)",
        hint: "pass the path of a folder that holds a SKILL.md",
      },
    ]);
  });

  it("reports a path that is neither a file nor a folder as a folder it cannot list", async () => {
    expect((await loadSkill("/dev/null")).findings).toEqual([
      {
        severity: "error",
        code: "skill-unreadable",
        file: "/dev/null",
        message: "cannot list the skill folder (ENOTDIR)",
        hint: "check the folder's permissions",
      },
    ]);
  });

  it("refuses a file other than SKILL.md", async () => {
    const path = join(temp.root, "notes.md");
    await writeFile(path, "# Notes\n");
    expect((await loadSkill(path)).findings).toEqual([
      {
        severity: "error",
        code: "skill-not-folder",
        file: path,
        message: "this is a file, not a skill folder",
        hint: "pass the folder that holds SKILL.md (or the SKILL.md itself)",
      },
    ]);
  });

  it("names a SKILL.md spelled with the wrong case", async () => {
    const dir = await temp.skill("pdf-rotate", { "skill.md": goodSkillMd });
    expect((await loadSkill(dir)).findings).toEqual([
      {
        severity: "error",
        code: "skill-md-missing",
        file: join(dir, "SKILL.md"),
        message: "the skill file is named skill.md; it must be SKILL.md",
        hint: "rename skill.md to SKILL.md",
      },
    ]);
  });

  it("reports a folder without SKILL.md", async () => {
    const dir = await temp.skill("pdf-rotate", { "README.md": "" });
    expect((await loadSkill(dir)).findings).toEqual([
      {
        severity: "error",
        code: "skill-md-missing",
        file: join(dir, "SKILL.md"),
        message: "the folder has no SKILL.md",
        hint: "create SKILL.md with a frontmatter (`name`, `description`) and instructions",
      },
    ]);
  });

  it("reports a SKILL.md that cannot be read, with the system error code", async () => {
    const dir = await temp.skill("pdf-rotate", {});
    await mkdir(join(dir, "SKILL.md"));
    expect((await loadSkill(dir)).findings).toEqual([
      {
        severity: "error",
        code: "skill-unreadable",
        file: join(dir, "SKILL.md"),
        message: "cannot read SKILL.md (EISDIR)",
        hint: "check the file's permissions",
      },
    ]);
  });

  it("reports a subfolder it cannot list, naming it", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": goodSkillMd });
    // A name that is not UTF-8 is listed as U+FFFD, a name no folder has.
    await mkdir(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0xff])]));
    expect((await loadSkill(dir)).findings).toEqual([
      {
        severity: "error",
        code: "skill-unreadable",
        file: dir,
        message: `cannot list the skill folder: cannot read ${join(dir, "\uFFFD")} (ENOENT)`,
        hint: "check the permissions of the skill folder and its subfolders",
      },
    ]);
  });

  it("refuses a SKILL.md that is not UTF-8", async () => {
    const dir = await temp.skill("pdf-rotate", {
      "SKILL.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]),
    });
    expect((await loadSkill(dir)).findings).toEqual([
      {
        severity: "error",
        code: "skill-not-utf8",
        file: join(dir, "SKILL.md"),
        message: "SKILL.md is not valid UTF-8",
        hint: "save the file as UTF-8 (not UTF-16 or a legacy code page)",
      },
    ]);
  });

  it("returns no skill for a frontmatter that is a plain string", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": "---\njust text\n---\n# Body\n" });
    const { skill, findings } = await loadSkill(dir);
    expect(skill).toBeUndefined();
    expect(findings.some((f) => f.severity === "error")).toBe(true);
  });
});

describe("loadSkill on links and env files", () => {
  it("flags a link leaving the folder as an error and a looping link as a warning", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": goodSkillMd });
    const secret = join(temp.root, "secret.md");
    await writeFile(secret, "x");
    await symlink(secret, join(dir, "leak.md"));
    await symlink(dir, join(dir, "self"));
    const { findings } = await loadSkill(dir);
    expect(findings.filter((f) => f.code.startsWith("link-"))).toEqual([
      {
        severity: "error",
        code: "link-outside",
        file: join(dir, "leak.md"),
        message: `"leak.md" is a link to ${secret}, outside the skill folder; it is never followed, copied or packaged`,
        hint: "copy what the skill needs into its folder and remove the link",
      },
      {
        severity: "warning",
        code: "link-loop",
        file: join(dir, "self"),
        message: `"self" is a link to ${dir}, which loops back on itself; it is not followed`,
        hint: "remove the link; a folder cannot hold itself",
      },
    ]);
  });

  it("warns about env files at any depth, but not about other left-out files", async () => {
    const dir = await temp.skill("pdf-rotate", {
      "SKILL.md": goodSkillMd,
      ".env": "A=1",
      "scripts/.env.local": "B=2",
      "scripts/x.pyc": "",
    });
    const { findings } = await loadSkill(dir);
    const warning = {
      severity: "warning",
      code: "env-file",
      message: "an env file usually holds secrets; it is left out of the package, the hash and tune's copies",
      hint: "keep secrets outside the skill folder; document the variables in an .env.example instead",
    };
    expect(findings.filter((f) => f.code === "env-file")).toEqual([
      { ...warning, file: join(dir, ".env") },
      { ...warning, file: join(dir, "scripts", ".env.local") },
    ]);
  });

  it("does not take an ignored .env.example folder for an env file", async () => {
    const dir = await temp.skill("pdf-rotate", {
      "SKILL.md": goodSkillMd,
      ".skillignore": ".env.example/\n",
      ".env.example/README.md": "A=\n",
    });
    const { findings } = await loadSkill(dir);
    expect(findings.filter((f) => f.code === "env-file")).toEqual([]);
  });
});
