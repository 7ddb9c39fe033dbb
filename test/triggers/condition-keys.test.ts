import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { SkillgymError } from "../../src/errors.js";
import { conditionKeyParts } from "../../src/triggers/condition-key.js";
import { loadConditionSkills, snapshotProject } from "../../src/triggers/conditions.js";
import { triggerRunKeys } from "../../src/triggers/reuse-trigger.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let agent: Agent;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "lib/alpha/SKILL.md": skillMd("alpha", "Does alpha things.", "Alpha."),
    "lib/beta/SKILL.md": skillMd("beta", "Does beta things.", "Beta."),
    "lib/.system/hidden/SKILL.md": skillMd("hidden", "Not a library entry.", "Hidden."),
    // A dot-folder holding a SKILL.md itself is left out too (an editor's or a tool's folder, not a skill).
    "lib/.draft/SKILL.md": skillMd("draft", "A dot-folder's skill.", "Draft."),
    "lib/notes.txt": "not a skill",
    "lib2/gamma/SKILL.md": skillMd("gamma", "Does gamma things.", "Gamma."),
    "clash/notes/SKILL.md": skillMd("notes", "Another notes skill.", "Notes."),
    "twice/alpha/SKILL.md": skillMd("alpha", "A second alpha.", "Alpha 2."),
    "empty/readme.txt": "no skills here",
    "project/package.json": "{}",
    "project/src/index.ts": "export {};\n",
    "project/.gitignore": "secrets.env\n",
    "project/secrets.env": "TOKEN=1\n",
    "project/node_modules/dep/index.js": "",
    "project/skills/notes/SKILL.md": skillMd("notes", "Drafts release notes.", "Notes."),
  });
  agent = await createClaudeCodeAgent({ simulatorUrl: "http://127.0.0.1:9" });
});
afterAll(() => cleanup());

const context = () => ({ agent, skillName: "notes", timeoutMs: 60_000, companions: [] });
const spec = { query: "draft the release notes", runNumber: 1 };
const keyOf = (ctx: Parameters<typeof triggerRunKeys>[0]) =>
  triggerRunKeys(ctx, "Drafts release notes.")(spec);

async function usageError(promise: Promise<unknown>): Promise<SkillgymError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

describe("--installed: every skill folder of a library", () => {
  it("loads each folder holding a SKILL.md (not dot-folders, not loose files), library by library", async () => {
    const { installed } = await loadConditionSkills(
      { installed: [join(dir, "lib"), join(dir, "lib2")] },
      "notes",
    );
    expect(installed.map((s) => s.installName)).toEqual(["alpha", "beta", "gamma"]);
  });

  it("refuses a missing folder, a folder with no skill, the skill under test's name, a name twice", async () => {
    const missing = await usageError(loadConditionSkills({ installed: [join(dir, "nope")] }, "notes"));
    expect(missing.message).toBe(`--installed: ${join(dir, "nope")} does not exist`);
    const empty = await usageError(loadConditionSkills({ installed: [join(dir, "empty")] }, "notes"));
    expect(empty.message).toContain(`--installed: ${join(dir, "empty")} holds no skill`);
    const clash = await usageError(loadConditionSkills({ installed: [join(dir, "clash")] }, "notes"));
    expect(clash.message).toContain(`${join(dir, "clash", "notes")} has the name of the skill under test`);
    const twice = await usageError(
      loadConditionSkills({ installed: [join(dir, "lib"), join(dir, "twice")] }, "notes"),
    );
    expect(twice.message).toContain(`${join(dir, "twice", "alpha")} has the name alpha`);
    const beside = await usageError(
      loadConditionSkills({ withSkills: [join(dir, "lib", "beta")], installed: [join(dir, "lib")] }, "notes"),
    );
    expect(beside.message).toContain("has the name beta");
    for (const error of [missing, empty, clash, twice, beside]) expect(error.code).toBe("USAGE");
  });
});

describe("the store key of a trigger run under conditions", () => {
  it("is the key of a clean-room run when no condition is given (keys stored before stay valid)", async () => {
    const clean = await keyOf(context());
    expect(await keyOf({ ...context(), installed: [] })).toBe(clean);
  });

  it("takes the installed skills' contents, whatever the order they were found in", async () => {
    const { installed } = await loadConditionSkills({ installed: [join(dir, "lib")] }, "notes");
    const clean = await keyOf(context());
    const key = await keyOf({ ...context(), installed });
    expect(key).not.toBe(clean);
    expect(await keyOf({ ...context(), installed: [...installed].reverse() })).toBe(key);
    expect(await keyOf({ ...context(), installed: installed.slice(0, 1) })).not.toBe(key);
    // The same skills given one by one (--with-skills) are another condition's key.
    expect(await keyOf({ ...context(), companions: installed })).not.toBe(key);

    await writeFile(
      join(dir, "lib", "beta", "SKILL.md"),
      skillMd("beta", "Does beta things better.", "Beta."),
    );
    expect(await keyOf({ ...context(), installed })).not.toBe(key);
  });

  it("lists the installed skills by name, in alphabetical order, and leaves out the conditions not given", async () => {
    const { installed } = await loadConditionSkills(
      { installed: [join(dir, "lib"), join(dir, "lib2")] },
      "notes",
    );
    const parts = await conditionKeyParts({ installed: [...installed].reverse() });
    expect(parts.installed?.map((s) => s.name)).toEqual(["alpha", "beta", "gamma"]);
    expect(parts.installed?.every((s) => /^[0-9a-f]{64}$/.test(s.content))).toBe(true);
    expect(await conditionKeyParts({ installed: [] })).toEqual({});
    expect(await conditionKeyParts({ project: { hash: "p1" }, context: { hash: "c1" } })).toEqual({
      project: "p1",
      context: "c1",
    });
  });

  it("takes the project's tree hash: the same project gives the same key, an edited one another", async () => {
    const project = join(dir, "project");
    const leaveOut = [join(project, "skills", "notes")];
    const first = await snapshotProject(project, leaveOut, join(dir, "snap-1"));
    const again = await snapshotProject(project, leaveOut, join(dir, "snap-2"));
    expect(again.hash).toBe(first.hash);
    const clean = await keyOf(context());
    const key = await keyOf({ ...context(), project: first });
    expect(key).not.toBe(clean);
    expect(await keyOf({ ...context(), project: again })).toBe(key);

    // What the copy leaves out (.gitignore, dependencies, the skill itself) is not in the snapshot nor the hash.
    expect((await readdir(first.snapshot)).sort()).toEqual([".gitignore", "package.json", "skills", "src"]);
    expect(await readdir(join(first.snapshot, "skills"))).toEqual([]);
    await writeFile(join(project, "secrets.env"), "TOKEN=2\n");
    expect((await snapshotProject(project, leaveOut, join(dir, "snap-3"))).hash).toBe(first.hash);

    await writeFile(join(project, "src", "index.ts"), "export const x = 1;\n");
    const edited = await snapshotProject(project, leaveOut, join(dir, "snap-4"));
    expect(edited.hash).not.toBe(first.hash);
    expect(await keyOf({ ...context(), project: edited })).not.toBe(key);
  });
});
