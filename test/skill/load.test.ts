import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorsOf } from "../../src/findings.js";
import { loadSkill } from "../../src/skill/index.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "./skill-folder.js";

let temp: TempRoot;
beforeEach(async () => {
  temp = await tempRoot();
});
afterEach(() => temp.cleanup());

const valid = skillMd(`name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}`);

describe("loadSkill", () => {
  it("reports a missing folder without throwing", async () => {
    const missing = join(temp.root, "nope");
    const { skill, findings } = await loadSkill(missing);
    expect(skill).toBeUndefined();
    expect(findings).toMatchObject([{ severity: "error", code: "skill-not-found", file: missing }]);
  });

  it("reports a folder without SKILL.md", async () => {
    const dir = await temp.skill("pdf-rotate", { "README.md": "# hi\n" });
    const { skill, findings } = await loadSkill(dir);
    expect(skill).toBeUndefined();
    expect(findings).toMatchObject([{ code: "skill-md-missing", file: join(dir, "SKILL.md") }]);
    expect(findings[0]?.hint).toContain("create SKILL.md");
  });

  it("points at a wrongly cased skill.md", async () => {
    const dir = await temp.skill("pdf-rotate", { "skill.md": valid });
    const { findings } = await loadSkill(dir);
    // Agents look for SKILL.md by exact name, even where the file system ignores case.
    expect(findings.map((f) => f.code)).toEqual(["skill-md-missing"]);
    expect(findings[0]?.hint).toBe("rename skill.md to SKILL.md");
  });

  it("accepts the path of SKILL.md itself and uses its folder", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": valid });
    const { skill, findings } = await loadSkill(join(dir, "SKILL.md"));
    expect(findings).toEqual([]);
    expect(skill?.dir).toBe(dir);
    expect(skill?.name).toBe("pdf-rotate");
  });

  it("resolves a relative path to an absolute folder", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": valid });
    const { skill, findings } = await loadSkill(relative(process.cwd(), dir));
    expect(findings).toEqual([]);
    expect(skill?.dir).toBe(dir);
  });

  it("reports a path that is some other file", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": valid, "notes.txt": "x" });
    const { skill, findings } = await loadSkill(join(dir, "notes.txt"));
    expect(skill).toBeUndefined();
    expect(findings).toMatchObject([{ code: "skill-not-folder" }]);
  });

  it("reports a SKILL.md that is not UTF-8", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(valid), 0xff, 0xfe, 0x0a]);
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": bytes });
    const { skill, findings } = await loadSkill(dir);
    expect(skill).toBeUndefined();
    expect(findings).toMatchObject([
      { severity: "error", code: "skill-not-utf8", file: join(dir, "SKILL.md") },
    ]);
  });

  it.skipIf(process.platform === "win32" || process.getuid?.() === 0)(
    "reports an unreadable SKILL.md",
    async () => {
      const dir = await temp.skill("pdf-rotate", { "SKILL.md": valid });
      await chmod(join(dir, "SKILL.md"), 0o000);
      const { skill, findings } = await loadSkill(dir);
      expect(skill).toBeUndefined();
      expect(findings).toMatchObject([{ code: "skill-unreadable" }]);
    },
  );

  it("returns the skill alongside its errors when the frontmatter is usable", async () => {
    const dir = await temp.skill("pdf-rotate", { "SKILL.md": skillMd("name: Other_Name\nauthor: me") });
    const { skill, findings } = await loadSkill(dir);
    expect(skill?.name).toBe("Other_Name");
    expect(skill?.description).toBe("");
    expect(errorsOf(findings).map((f) => f.code)).toEqual(["name-charset", "description-missing"]);
    expect(findings.find((f) => f.code === "name-mismatch")?.severity).toBe("warning");
  });

  it("falls back to the folder's name when name is not a string", async () => {
    const dir = await temp.skill("pdf-rotate", {
      "SKILL.md": skillMd(`name: [x]\ndescription: ${GOOD_DESCRIPTION}`),
    });
    const { skill } = await loadSkill(dir);
    expect(skill?.name).toBe("pdf-rotate");
  });

  it("checks body references against the folder's current files", async () => {
    const dir = await temp.skill("pdf-rotate", {
      "SKILL.md": skillMd(
        `name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}`,
        "See [api](references/api.md).\n",
      ),
    });
    expect((await loadSkill(dir)).findings.map((f) => f.code)).toEqual(["missing-reference"]);
    await mkdir(join(dir, "references"));
    await writeFile(join(dir, "references", "api.md"), "# API\n");
    expect((await loadSkill(dir)).findings).toEqual([]);
  });
});
