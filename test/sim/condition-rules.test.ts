import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { SkillgymError } from "../../src/errors.js";
import type { Conversation } from "../../src/sim/conversation.js";
import { loadSimScript } from "../../src/sim/load-script.js";
import { createSimModel } from "../../src/sim/model.js";
import { matchRule, resolveSkill } from "../../src/sim/plan.js";
import { defaultChoice } from "../../src/sim/skill-choice.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-sim-conditions-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const script = SimScript.parse({
  rules: [
    { match: "tidy", skills: "^rival$", skill: "rival" },
    { match: "tidy", skill: "~notes-sg-" },
    { match: "release", files: "^package\\.json$", skill: "~notes-sg-" },
    { match: "release", skill: "none" },
  ],
});

const view = (prompt: string, skills: string[] = [], files: string[] = []) => ({
  prompt,
  model: "skillgym-sim",
  skills,
  files: () => files,
});

describe("sim rules that match on what the request shows", () => {
  it("`skills` fits when some listed skill's name matches, case-insensitively", () => {
    expect(matchRule(script, view("tidy it", ["notes-sg-1a2b3c4d", "Rival"])).index).toBe(0);
    expect(matchRule(script, view("tidy it", ["notes-sg-1a2b3c4d", "rival-two"])).index).toBe(1);
    expect(matchRule(script, view("tidy it", [])).index).toBe(1);
  });

  it("`files` fits when some entry of the working directory matches; the listing is read only when asked", () => {
    expect(matchRule(script, view("release it", [], ["README.md", "package.json"])).index).toBe(2);
    expect(matchRule(script, view("release it", [], ["package.json.bak"])).index).toBe(3);
    let asked = 0;
    const counted = {
      ...view("tidy it"),
      files: () => {
        asked++;
        return [];
      },
    };
    matchRule(script, counted);
    expect(asked).toBe(0);
  });

  it("`history` fits only a conversation with an earlier turn that matches; no rule fitting is index -1", () => {
    const byHistory = SimScript.parse({ rules: [{ history: "." }] });
    expect(matchRule(byHistory, view("tidy it")).index).toBe(-1);
    expect(matchRule(byHistory, { ...view("tidy it"), history: [] })).toEqual({ rule: {}, index: -1 });
    expect(matchRule(byHistory, { ...view("tidy it"), history: ["earlier"] }).index).toBe(0);
  });

  it("a rule's skill names a listed skill, or a plugin's skill of that name", () => {
    const skill = (wanted: string, names: string[]) =>
      resolveSkill(
        wanted,
        "tidy it",
        names.map((name) => ({ name, description: "" })),
        defaultChoice,
      );
    expect(skill("notes", ["other", "notes"])).toBe("notes");
    expect(skill("notes", ["plug:notes"])).toBe("plug:notes");
    expect(skill("notes", ["notes:plug", "my-notes"])).toBeUndefined();
  });

  it("the model reads the working directory the request names", async () => {
    const project = join(dir, "project");
    const empty = join(dir, "empty");
    await writeTree({ [join(project, "package.json")]: "{}", [join(empty, ".keep")]: "" });
    const conversation = (cwd: string | undefined): Conversation => ({
      prompt: "cut a release",
      cwd,
      skills: [{ name: "notes-sg-1a2b3c4d", description: "Drafts release notes." }],
      turn: 0,
      hasTools: true,
      model: "skillgym-sim",
    });
    const skillOf = (cwd: string | undefined, session: string) =>
      createSimModel(script).reply({ conversation: conversation(cwd), judgeText: "", session }).skill;
    expect(skillOf(project, "a")).toBe("notes-sg-1a2b3c4d");
    expect(skillOf(empty, "b")).toBeUndefined();
    expect(skillOf(join(dir, "gone"), "c")).toBeUndefined();
    expect(skillOf(undefined, "d")).toBeUndefined();
  });

  it("a `files` rule fits no run whose working directory is unnamed, relative or cannot be read", async () => {
    const anyEntry = SimScript.parse({ rules: [{ files: ".", skill: "~notes-sg-" }] });
    const project = join(dir, "any-entry");
    await writeTree({ [join(project, "notes.md")]: "" });
    const skillOf = (cwd: string | undefined) =>
      createSimModel(anyEntry).reply({
        conversation: {
          prompt: "cut a release",
          cwd,
          skills: [{ name: "notes-sg-1a2b3c4d", description: "Drafts release notes." }],
          turn: 0,
          hasTools: true,
          model: "skillgym-sim",
        },
        judgeText: "",
        session: "s",
      }).skill;
    expect(skillOf(project)).toBe("notes-sg-1a2b3c4d");
    expect(skillOf(undefined)).toBeUndefined();
    expect(skillOf("any-entry")).toBeUndefined();
    expect(skillOf(join(project, "notes.md"))).toBeUndefined();
  });

  it("the loader refuses a `skills` or `files` that is not a regular expression, naming the rule", async () => {
    for (const field of ["skills", "files"]) {
      const file = join(dir, `${field}.json`);
      await writeFile(file, JSON.stringify({ rules: [{ match: "x" }, { [field]: "(unclosed" }] }));
      const error = await loadSimScript(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SkillgymError);
      expect((error as Error).message).toContain(`rules[1].${field}: not a valid regular expression`);
    }
    const empty = join(dir, "empty-skills.json");
    await writeFile(empty, JSON.stringify({ rules: [{ skills: "" }] }));
    await expect(loadSimScript(empty)).rejects.toThrow(/rules\[0\]\.skills/);
  });
});

async function writeTree(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}
