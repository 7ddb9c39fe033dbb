import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copilotSkillLoad, copilotSkillRoots } from "../../src/agents/copilot/skills.js";
import { geminiSkillLoad } from "../../src/agents/gemini/skill-load.js";
import { openCodeSkillLoad, openCodeSkillRoots } from "../../src/agents/opencode/skills.js";
import { qwenSkillRoots } from "../../src/agents/qwen-code/skills.js";
import { listSkills, skillLoadBy, walkUpSkillRoots } from "../../src/agents/skill-folders.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-skill-folders-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tools = {
  tool: { name: "skill", skillKey: "name" },
  read: { name: "read", pathKeys: ["filePath", "path"] },
};

describe("skillLoadBy", () => {
  it("the skill tool naming a skill", () => {
    expect(skillLoadBy(tools, "skill", { name: "haiku" })).toEqual({ skill: "haiku", via: "tool" });
    expect(skillLoadBy(tools, "skill", { name: "" })).toBeUndefined();
    expect(skillLoadBy(tools, "skill", { name: 3 })).toBeUndefined();
    expect(skillLoadBy(tools, "skill", { skill: "haiku" })).toBeUndefined();
  });

  it("a read of a skill's SKILL.md, by the first path key present", () => {
    expect(skillLoadBy(tools, "read", { filePath: "/w/.agents/skills/haiku/SKILL.md" })).toEqual({
      skill: "haiku",
      via: "read",
    });
    expect(skillLoadBy(tools, "read", { path: "C:\\w\\skills\\pdf\\skill.md" })).toEqual({
      skill: "pdf",
      via: "read",
    });
    expect(skillLoadBy(tools, "read", { filePath: 3, path: "/w/skills/haiku/SKILL.md" })).toBeUndefined();
    expect(skillLoadBy(tools, "read", { filePath: "/w/skills/haiku/notes.md" })).toBeUndefined();
    expect(skillLoadBy(tools, "read", { filePath: "/w/skills/haiku/SKILL.md.bak" })).toBeUndefined();
    expect(skillLoadBy(tools, "read", { filePath: "/w/myskills/haiku/SKILL.md" })).toBeUndefined();
    expect(skillLoadBy(tools, "read", {})).toBeUndefined();
    expect(skillLoadBy(tools, "write", { filePath: "/w/skills/haiku/SKILL.md" })).toBeUndefined();
  });

  it("each agent's own tool names", () => {
    expect(copilotSkillLoad("skill", { skill: "haiku" })).toEqual({ skill: "haiku", via: "tool" });
    expect(copilotSkillLoad("view", { path: "/w/.github/skills/haiku/SKILL.md" })).toEqual({
      skill: "haiku",
      via: "read",
    });
    expect(openCodeSkillLoad("skill", { name: "haiku" })).toEqual({ skill: "haiku", via: "tool" });
    expect(openCodeSkillLoad("read", { filePath: "/w/.agents/skills/haiku/SKILL.md" })).toEqual({
      skill: "haiku",
      via: "read",
    });
    expect(geminiSkillLoad({ name: "activate_skill", input: { name: "haiku" } })).toEqual({
      skill: "haiku",
      via: "tool",
    });
    expect(
      geminiSkillLoad({ name: "read_file", input: { absolute_path: "/w/.gemini/skills/pdf/SKILL.md" } }),
    ).toEqual({
      skill: "pdf",
      via: "read",
    });
    expect(
      geminiSkillLoad({
        name: "read_file",
        input: { file_path: "/w/.gemini/skills/a/SKILL.md", absolute_path: "/x" },
      }),
    ).toEqual({
      skill: "a",
      via: "read",
    });
  });
});

describe("walkUpSkillRoots", () => {
  it("the folders in cwd and each folder above it, up to the git root", async () => {
    const repo = join(dir, "repo");
    const cwd = join(repo, "pkg", "app");
    await mkdir(join(repo, ".git"), { recursive: true });
    await mkdir(cwd, { recursive: true });
    expect(await walkUpSkillRoots(cwd, [".a/skills", ".b/skills"])).toEqual([
      join(cwd, ".a/skills"),
      join(cwd, ".b/skills"),
      join(repo, "pkg", ".a/skills"),
      join(repo, "pkg", ".b/skills"),
      join(repo, ".a/skills"),
      join(repo, ".b/skills"),
    ]);
  });

  it("up to the file system's root without one", async () => {
    const roots = await walkUpSkillRoots(join(dir, "loose"), [".agents/skills"]);
    expect(roots[0]).toBe(join(dir, "loose", ".agents/skills"));
    expect(roots.at(-1)).toBe(join("/", ".agents/skills"));
    expect(roots).toContain(join(dir, ".agents/skills"));
  });

  it("each agent's roots end with the run's home", async () => {
    const cwd = join(dir, "repo");
    expect(await copilotSkillRoots(cwd, "/h")).toEqual([
      join(cwd, ".github/skills"),
      join(cwd, ".agents/skills"),
      join(cwd, ".claude/skills"),
      join("/h", ".copilot", "skills"),
      join("/h", ".agents", "skills"),
    ]);
    expect(await openCodeSkillRoots(cwd, "/h")).toEqual([
      join(cwd, ".opencode/skills"),
      join(cwd, ".claude/skills"),
      join(cwd, ".agents/skills"),
      join("/h", ".config", "opencode", "skills"),
      join("/h", ".claude", "skills"),
      join("/h", ".agents", "skills"),
    ]);
    expect(await qwenSkillRoots(cwd, "/h")).toEqual([
      join(cwd, ".qwen/skills"),
      join(cwd, ".agents/skills"),
      join("/h", ".qwen", "skills"),
    ]);
  });
});

describe("listSkills", () => {
  it("each folder holding a SKILL.md, sorted within a root, once over all roots", async () => {
    const a = join(dir, "roots", "a");
    const b = join(dir, "roots", "b");
    for (const [root, name] of [
      [a, "zeta"],
      [a, "alpha"],
      [b, "alpha"],
      [b, "beta"],
    ] as const) {
      await mkdir(join(root, name), { recursive: true });
      await writeFile(join(root, name, "SKILL.md"), "---\n---\n");
    }
    await mkdir(join(a, "empty"), { recursive: true });
    await writeFile(join(a, "loose.md"), "x");
    expect(await listSkills([a, join(dir, "roots", "missing"), b])).toEqual(["alpha", "zeta", "beta"]);
    expect(await listSkills([])).toEqual([]);
  });

  // The file system lists names in its own order (bytes of UTF-8 on Linux, case-blind on Windows): the skills come
  // in JavaScript's order whatever it is.
  it("sorts by JavaScript's string order, not the file system's", async () => {
    const root = join(dir, "roots", "unicode");
    for (const name of ["\uff5a-wide", "\u{1f600}-smile"]) {
      await mkdir(join(root, name), { recursive: true });
      await writeFile(join(root, name, "SKILL.md"), "---\n---\n");
    }
    expect(await listSkills([root])).toEqual(["\u{1f600}-smile", "\uff5a-wide"]);
  });
});
