import { lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { copySkillFiles, replaceSkillFiles, skillDiff } from "../../src/tune/skill-files.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { skillMd } from "./tune-helpers.js";

const SECRET = "root:x:0:0:the outside secret";

let dir: string;
let cleanup: () => Promise<void>;
let outside: string;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  // Stands in for /etc and for a folder of the user's that a skill links to.
  outside = join(dir, "outside");
  await writeTree(dir, {
    "outside/passwd": SECRET,
    "outside/refs/keep.md": "outside, must stay\n",
    "greeter/SKILL.md": skillMd("greeter", "Writes greeting cards. Use when asked for a card.", "Old body."),
    "greeter/evals/evals.json": JSON.stringify({
      skill_name: "greeter",
      evals: [{ id: 1, prompt: "Greet Ada", expected_output: "A card", expectations: ["card.md exists"] }],
    }),
  });
});
afterEach(() => cleanup());

async function allText(folder: string): Promise<string> {
  let text = "";
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), "utf8");
  }
  return text;
}

describe("tune's copies of a skill", () => {
  it("never carry a file an outside link points to", async () => {
    await symlink(join(outside, "passwd"), join(dir, "greeter", "passwd.txt"));
    await symlink(outside, join(dir, "greeter", "etc-dir"));
    await copySkillFiles(join(dir, "greeter"), join(dir, "snapshot"));
    expect((await readdir(join(dir, "snapshot"))).sort()).toEqual(["SKILL.md"]);
    expect(await allText(join(dir, "snapshot"))).not.toContain(SECRET);
    expect(await skillDiff(join(dir, "snapshot"), join(dir, "greeter"), "greeter")).toBe("");
  });

  it("apply never writes through, nor deletes via, a link out of the user's skill", async () => {
    await symlink(join(outside, "refs"), join(dir, "greeter", "refs"));
    await symlink(join(outside, "passwd"), join(dir, "greeter", "notes.md"));
    await writeTree(dir, {
      "best/SKILL.md": skillMd("greeter", "Writes greeting cards. Use when asked for a card.", "New body."),
      "best/notes.md": "new notes\n",
    });
    await replaceSkillFiles(join(dir, "best"), join(dir, "greeter"));
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toContain("New body.");
    expect((await lstat(join(dir, "greeter", "notes.md"))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(dir, "greeter", "notes.md"), "utf8")).toBe("new notes\n");
    expect(await readFile(join(outside, "passwd"), "utf8")).toBe(SECRET);
    expect(await readdir(join(outside, "refs"))).toEqual(["keep.md"]);

    await writeTree(dir, { "best/refs/new.md": "would land outside\n" });
    await expect(replaceSkillFiles(join(dir, "best"), join(dir, "greeter"))).rejects.toThrow(
      `${join(dir, "greeter", "refs")} is a link to ${join(outside, "refs")}, outside the skill`,
    );
    expect(await readdir(join(outside, "refs"))).toEqual(["keep.md"]);
    expect(await readFile(join(dir, "greeter", "notes.md"), "utf8")).toBe("new notes\n");
  });
});

describe("every command that runs refuses a skill with an outside link before any work", () => {
  it.each([
    ["tune", ["-y", "--simulate"]],
    ["eval", ["--simulate"]],
    ["run", ["--simulate"]],
    ["triggers", ["--simulate"]],
  ])("%s exits 2 naming the link", async (command, flags) => {
    await symlink(join(outside, "passwd"), join(dir, "greeter", "passwd.txt"));
    await mkdir(join(dir, "work"));
    const io = captureIo();
    expect(await main([command, join(dir, "greeter"), ...flags, "--workspace", join(dir, "work")], io)).toBe(
      2,
    );
    expect(io.stderr()).toContain(
      `"passwd.txt" is a link to ${join(outside, "passwd")}, outside the skill folder`,
    );
    expect(await readdir(join(dir, "work"))).toEqual([]);
  });
});

it("a skill whose link stays inside is not refused by validate", async () => {
  await writeFile(join(dir, "greeter", "card.md"), "card\n");
  await symlink("card.md", join(dir, "greeter", "alias.md"));
  const io = captureIo();
  expect(await main(["validate", join(dir, "greeter")], io)).toBe(0);
});
