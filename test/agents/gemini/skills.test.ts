import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillHidingSettings, skillRoots, userSettingsWarning } from "../../../src/agents/gemini/skills.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-gemini-skills-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("Gemini CLI's skill roots", () => {
  it("the workspace's .gemini and .agents skills, then the home's", () => {
    expect(skillRoots("/ws", "/h")).toEqual([
      join("/ws", ".gemini", "skills"),
      join("/ws", ".agents", "skills"),
      join("/h", ".gemini", "skills"),
      join("/h", ".agents", "skills"),
    ]);
  });
});

describe("skillHidingSettings", () => {
  it("names every setting that hides skills", () => {
    expect(
      skillHidingSettings({
        skills: { enabled: false, disabled: ["a", "b"] },
        tools: { exclude: ["x", "activate_skill"], core: ["read_file"] },
      }),
    ).toEqual([
      "skills.enabled is false",
      "skills.disabled lists a, b",
      "tools.exclude lists activate_skill",
      "tools.core leaves out activate_skill",
    ]);
  });

  it("nothing for settings that leave skills on", () => {
    expect(
      skillHidingSettings({
        skills: { enabled: true, disabled: [] },
        tools: { exclude: ["x"], core: ["activate_skill"] },
      }),
    ).toEqual([]);
    expect(skillHidingSettings({ skills: "x", tools: [1] })).toEqual([]);
    expect(
      skillHidingSettings({ skills: { disabled: "a" }, tools: { exclude: "activate_skill", core: "x" } }),
    ).toEqual([]);
    expect(skillHidingSettings(null)).toEqual([]);
    expect(skillHidingSettings([{}])).toEqual([]);
  });
});

describe("userSettingsWarning", () => {
  it("warns, naming the file, when the user's settings hide skills", async () => {
    const home = join(dir, "hiding");
    await mkdir(join(home, ".gemini"), { recursive: true });
    await writeFile(
      join(home, ".gemini", "settings.json"),
      JSON.stringify({ skills: { enabled: false }, tools: { exclude: ["activate_skill"] } }),
    );
    expect(await userSettingsWarning(home)).toBe(
      `${join(home, ".gemini", "settings.json")}: skills.enabled is false; tools.exclude lists activate_skill: your own Gemini CLI sessions hide skills, ` +
        "while skillgym's runs (their own home, a policy allowing activate_skill) offer them",
    );
  });

  it("says nothing for settings that hide nothing, no settings, bad JSON or no home", async () => {
    const fine = join(dir, "fine");
    await mkdir(join(fine, ".gemini"), { recursive: true });
    await writeFile(join(fine, ".gemini", "settings.json"), "{}");
    expect(await userSettingsWarning(fine)).toBeUndefined();
    const broken = join(dir, "broken");
    await mkdir(join(broken, ".gemini"), { recursive: true });
    await writeFile(join(broken, ".gemini", "settings.json"), "{oops");
    expect(await userSettingsWarning(broken)).toBeUndefined();
    expect(await userSettingsWarning(join(dir, "none"))).toBeUndefined();
    expect(await userSettingsWarning(undefined)).toBeUndefined();
    expect(await userSettingsWarning("")).toBeUndefined();
  });
});
