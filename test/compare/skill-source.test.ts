import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunSnapshot } from "../../src/compare/read-run.js";
import { skillSourceOf } from "../../src/compare/skill-source.js";
import { SkillgymError } from "../../src/errors.js";
import { makeTempDir, removeDir, writeTree } from "./fixtures.js";

let root: string;

beforeEach(async () => {
  root = await makeTempDir();
});
afterEach(async () => {
  await removeDir(root);
});

function run(configuration: string, skillPath?: string | null): RunSnapshot {
  return {
    runDir: path.join(root, "eval-1", configuration, "run-1"),
    configuration,
    evalDir: path.join(root, "eval-1"),
    outputs: [],
    transcriptTail: "",
    finalMessage: undefined,
    prompt: undefined,
    ...(skillPath !== undefined ? { skillPath } : {}),
  };
}

describe("skillSourceOf", () => {
  it("reads the recorded skill's SKILL.md from its folder", async () => {
    await writeTree(root, { "skill/SKILL.md": "# Skill\nDo it well.\n" });
    const skill = path.join(root, "skill");
    expect(await skillSourceOf(run("with_skill", skill))).toEqual({
      label: skill,
      text: "# Skill\nDo it well.\n",
      note: "",
    });
  });

  it("prefers the skill given, as a folder or as the SKILL.md file itself", async () => {
    await writeTree(root, { "given/SKILL.md": "GIVEN" });
    const given = path.join(root, "given");
    const expected = { label: given, text: "GIVEN", note: "" };
    expect(await skillSourceOf(run("without_skill", null), given)).toEqual(expected);
    expect(await skillSourceOf(run("with_skill", "/elsewhere"), path.join(given, "SKILL.md"))).toEqual(
      expected,
    );
  });

  it("refuses a given path without SKILL.md, saying what to pass", async () => {
    await writeTree(root, { "empty/notes.md": "x" });
    for (const given of [path.join(root, "empty"), path.join(root, "missing")]) {
      const error = (await skillSourceOf(run("with_skill"), given).catch((e: unknown) => e)) as SkillgymError;
      expect(error).toBeInstanceOf(SkillgymError);
      expect(error.code).toBe("BAD_INPUT");
      expect(error.message).toBe(`${given}: no SKILL.md there`);
      expect(error.hint).toBe("pass a skill folder (one holding SKILL.md) or the SKILL.md file itself");
      expect(error.file).toBe(given);
    }
  });

  it("says when a run had no skill, when its skill is not known, and when its SKILL.md has gone", async () => {
    expect(await skillSourceOf(run("without_skill", null))).toEqual({
      label: "none (without_skill)",
      text: undefined,
      note: "This run had no skill: the agent worked on its own.",
    });
    expect(await skillSourceOf(run("variant"))).toEqual({
      label: "unknown",
      text: undefined,
      note: "Which skill this run used is not known; judge from its transcript.",
    });
    const moved = path.join(root, "moved-skill");
    expect(await skillSourceOf(run("with_skill", moved))).toEqual({
      label: moved,
      text: undefined,
      note: `SKILL.md could not be read at ${moved} (it may have moved); judge from the transcript.`,
    });
  });

  it("clips a SKILL.md longer than 30,000 characters and says how much is left out", async () => {
    await writeTree(root, {
      "long/SKILL.md": `${"a".repeat(29_999)}bcd`,
      "exact/SKILL.md": "e".repeat(30_000),
    });
    const long = await skillSourceOf(run("with_skill", path.join(root, "long")));
    expect(long.text).toBe(`${"a".repeat(29_999)}b\n… (2 more characters)`);
    const exact = await skillSourceOf(run("with_skill", path.join(root, "exact")));
    expect(exact.text).toBe("e".repeat(30_000));
  });
});
