import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { unzipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashSkill, loadSkill, packageSkill } from "../../src/skill/index.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "./skill-folder.js";

const bin = resolve(import.meta.dirname, "../../bin/skillgym.js");

let temp: TempRoot;
beforeEach(async () => {
  temp = await tempRoot();
});
afterEach(() => temp.cleanup());

const shipped = {
  "SKILL.md": skillMd(`name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}`),
  ".env.example": "API_KEY=\n",
  "references/api.md": "# API\n",
  "scripts/rotate.py": "print('rotate')\n",
};

const litter = {
  ".env": "API_KEY=sk-secret\n",
  ".env.local": "API_KEY=sk-local\n",
  "scripts/.env.production": "API_KEY=sk-prod\n",
  ".venv/bin/python": "",
  "venv/lib/site.py": "",
  "pyenv/pyvenv.cfg": "home = /usr/bin\n",
  "pyenv/lib/x.py": "",
  "Thumbs.db": "\u0000",
  "references/desktop.ini": "[.ShellClassInfo]\n",
  "references/.api.md.swp": "\u0000",
  "references/.api.md.swo": "\u0000",
  "references/api.md~": "old\n",
  ".idea/workspace.xml": "<x/>",
  ".vscode/settings.json": "{}",
};

describe("what package leaves out", () => {
  it("leaves out secrets, virtual environments and OS and editor litter, keeps .env.example, and lists it all", async () => {
    const dir = await temp.skill("pdf-rotate", { ...shipped, ...litter });
    const { file, entries, leftOut } = await packageSkill(dir, join(temp.root, "dist"));
    const names = Object.keys(shipped)
      .map((p) => `pdf-rotate/${p}`)
      .sort();
    expect(entries).toEqual(names);
    expect(Object.keys(unzipSync(new Uint8Array(await readFile(file)))).sort()).toEqual(names);
    expect(leftOut).toEqual([
      ".env",
      ".env.local",
      ".idea/",
      ".venv/",
      ".vscode/",
      "Thumbs.db",
      "pyenv/",
      "references/.api.md.swo",
      "references/.api.md.swp",
      "references/api.md~",
      "references/desktop.ini",
      "scripts/.env.production",
      "venv/",
    ]);
  });

  it("honours the skill's .skillignore and .gitignore", async () => {
    const dir = await temp.skill("pdf-rotate", {
      ...shipped,
      ".skillignore": "drafts/\n*.log\n",
      ".gitignore": "/build/\nsecret-*.txt\n!secret-ok.txt\n",
      "drafts/idea.md": "x",
      "references/run.log": "x",
      "build/out.js": "x",
      "references/secret-1.txt": "x",
      "references/secret-ok.txt": "x",
    });
    const { entries, leftOut } = await packageSkill(dir, join(temp.root, "dist"));
    expect(entries).toContain("pdf-rotate/references/secret-ok.txt");
    expect(entries).toContain("pdf-rotate/.skillignore");
    expect(leftOut).toEqual(["build/", "drafts/", "references/run.log", "references/secret-1.txt"]);
  });

  it("keeps the hash to what ships: a change to a left-out file does not change it", async () => {
    const dir = await temp.skill("pdf-rotate", { ...shipped, ".skillignore": "notes/\n" });
    const before = await hashSkill(dir);
    await temp.skill("pdf-rotate", { ...litter, "notes/todo.md": "x" });
    expect(await hashSkill(dir)).toBe(before);
  });

  it("the CLI prints what was left out", async () => {
    const dir = await temp.skill("pdf-rotate", {
      ...shipped,
      ".env": "API_KEY=sk-secret\n",
      "Thumbs.db": "",
    });
    const result = spawnSync(process.execPath, [bin, "package", dir, "--out", join(temp.root, "dist")], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`wrote ${join(temp.root, "dist", "pdf-rotate.skill")} (4 files)`);
    expect(result.stdout).toContain("left out 2 entries:\n  .env\n  Thumbs.db\n");
  });

  it("validate warns about an env file, and only about that", async () => {
    const dir = await temp.skill("pdf-rotate", {
      ...shipped,
      ".env": "API_KEY=sk-secret\n",
      "Thumbs.db": "",
    });
    const { findings } = await loadSkill(dir);
    const env = findings.filter((f) => f.code === "env-file");
    expect(env).toMatchObject([{ severity: "warning", file: join(dir, ".env") }]);
    expect(findings.filter((f) => f.severity === "error")).toEqual([]);
  });
});
