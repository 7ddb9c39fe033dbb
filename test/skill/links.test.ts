import { spawnSync } from "node:child_process";
import { access, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listSkillFiles, scanSkill } from "../../src/skill/files.js";
import { hashSkill, loadSkill, packageSkill } from "../../src/skill/index.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "./skill-folder.js";

const bin = resolve(import.meta.dirname, "../../bin/skillgym.js");
const SECRET = "root:x:0:0:the outside secret";

function skillgym(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let temp: TempRoot;
let outside: string;
beforeEach(async () => {
  temp = await tempRoot();
  // Stands in for /etc: a folder beside the skill holding what must never leave the machine.
  outside = join(temp.root, "outside");
  await mkdir(join(outside, "ssh"), { recursive: true });
  await writeFile(join(outside, "passwd"), SECRET);
  await writeFile(join(outside, "ssh", "id_rsa"), `${SECRET} key`);
});
afterEach(() => temp.cleanup());

async function skillWith(links: Record<string, string>): Promise<string> {
  const dir = await temp.skill("pdf-rotate", {
    "SKILL.md": skillMd(`name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}`),
    "references/api.md": "# API\n",
  });
  for (const [link, target] of Object.entries(links)) {
    await mkdir(join(dir, link, ".."), { recursive: true });
    await symlink(target, join(dir, link));
  }
  return dir;
}

const outsideLinks = () => ({
  "passwd.txt": join(outside, "passwd"),
  "references/etc-dir": outside,
});

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe("links in a skill folder", () => {
  it("never lists a file or folder a link takes outside the skill, and reports each link", async () => {
    const dir = await skillWith(outsideLinks());
    const scan = await scanSkill(dir);
    expect(scan.files.map((f) => f.path)).toEqual(["SKILL.md", "references/api.md"]);
    expect(scan.links).toEqual([
      { path: "passwd.txt", target: join(outside, "passwd"), problem: "outside" },
      { path: "references/etc-dir", target: outside, problem: "outside" },
    ]);
  });

  it("keeps the hash blind to what lies behind an outside link", async () => {
    const dir = await skillWith(outsideLinks());
    const before = await hashSkill(dir);
    await writeFile(join(outside, "passwd"), "changed");
    await writeFile(join(outside, "ssh", "new"), "added");
    expect(await hashSkill(dir)).toBe(before);
  });

  it("treats a link whose target stays inside the skill as its target", async () => {
    const dir = await skillWith({ "alias.md": "references/api.md", refs: "references" });
    const files = await listSkillFiles(dir);
    expect(files.map((f) => f.path)).toEqual(["SKILL.md", "alias.md", "references/api.md", "refs/api.md"]);
    const { findings } = await loadSkill(dir);
    expect(findings.filter((f) => f.code.startsWith("link-"))).toEqual([]);
  });

  it("detects a loop of links instead of walking it, and warns about it", async () => {
    const dir = await skillWith({ "references/up": "..", "self-a": "self-b", "self-b": "self-a" });
    const scan = await scanSkill(dir);
    expect(scan.files.map((f) => f.path)).toEqual(["SKILL.md", "references/api.md"]);
    expect(scan.links.map((l) => [l.path, l.problem])).toEqual([
      ["references/up", "loop"],
      ["self-a", "loop"],
      ["self-b", "loop"],
    ]);
    const { findings } = await loadSkill(dir);
    const loops = findings.filter((f) => f.code === "link-loop");
    expect(loops.map((f) => f.severity)).toEqual(["warning", "warning", "warning"]);
    expect(loops[0]?.file).toBe(join(dir, "references", "up"));
  });

  it("leaves out an inside link to a left-out file, so a secret never ships under another name", async () => {
    const dir = await skillWith({ "config.txt": ".env" });
    await writeFile(join(dir, ".env"), "API_KEY=secret");
    const scan = await scanSkill(dir);
    expect(scan.files.map((f) => f.path)).not.toContain("config.txt");
    expect(scan.leftOut).toEqual([".env", "config.txt"]);
  });
});

describe("validate and package refuse a skill with an outside link", () => {
  it("validate names each link and its target, as errors (exit 2)", async () => {
    const dir = await skillWith(outsideLinks());
    const result = skillgym(["validate", dir], temp.root);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      `error: ${join(dir, "passwd.txt")}: "passwd.txt" is a link to ${join(outside, "passwd")}, outside the skill folder`,
    );
    expect(result.stdout).toContain(
      `error: ${join(dir, "references", "etc-dir")}: "references/etc-dir" is a link to ${outside}, outside the skill folder`,
    );
    expect(result.stdout).toMatch(/invalid: .* \(2 errors/);
  });

  it("package exits 2 and writes no .skill", async () => {
    const dir = await skillWith(outsideLinks());
    const out = join(temp.root, "dist");
    const result = skillgym(["package", dir, "--out", out], temp.root);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"references/etc-dir" is a link to');
    expect(await exists(join(out, "pdf-rotate.skill"))).toBe(false);
    await expect(packageSkill(dir, out)).rejects.toMatchObject({ code: "INVALID_SKILL" });
  });

  it("package ships what an inside link points to", async () => {
    const dir = await skillWith({ refs: "references" });
    const { file } = await packageSkill(dir, join(temp.root, "dist"));
    const unzipped = unzipSync(new Uint8Array(await readFile(file)));
    expect(strFromU8(unzipped["pdf-rotate/refs/api.md"]!)).toBe("# API\n");
    expect(Object.values(unzipped).some((bytes) => strFromU8(bytes).includes(SECRET))).toBe(false);
  });
});
