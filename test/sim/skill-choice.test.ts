import { describe, expect, it } from "vitest";
import {
  builtinSkills,
  type ChoiceOptions,
  chooseSkill,
  contentWords,
  defaultChoice,
  scoreSkill,
} from "../../src/sim/skill-choice.js";

const loose: ChoiceOptions = { cutoff: 0.25, minShared: 1, ignore: [] };

describe("contentWords", () => {
  it("drops stopwords and short words, lowercases and stems", () => {
    expect([...contentWords("Please help me with Testing the Libraries, it's OK")].sort()).toEqual([
      "library",
      "test",
    ]);
  });
});

describe("scoreSkill", () => {
  it("is the share of the prompt's content words found in the name and description", () => {
    expect(scoreSkill("alpha bravo charlie delta", { name: "zulu", description: "alpha yankee" })).toEqual({
      score: 0.25,
      shared: 1,
    });
    expect(scoreSkill("alpha bravo charlie delta", { name: "alpha-bravo", description: "nothing" })).toEqual({
      score: 0.5,
      shared: 2,
    });
  });

  it("matches word forms through stemming", () => {
    expect(scoreSkill("writing tests", { name: "x", description: "writes a test" })).toEqual({
      score: 1,
      shared: 2,
    });
    expect(scoreSkill("writing tests", { name: "x", description: "testing" })).toEqual({
      score: 0.5,
      shared: 1,
    });
  });

  it("is zero when the prompt has no content words", () => {
    expect(scoreSkill("do it for me please", { name: "do", description: "please do it" })).toEqual({
      score: 0,
      shared: 0,
    });
  });
});

describe("chooseSkill", () => {
  const prompt = "alpha bravo charlie delta";

  it("takes a skill whose score reaches the cutoff, and none below it", () => {
    const skills = [{ name: "zulu", description: "alpha yankee" }];
    expect(chooseSkill(prompt, skills, loose)).toBe("zulu");
    expect(chooseSkill(prompt, skills, { ...loose, cutoff: 0.26 })).toBeUndefined();
  });

  it("needs at least minShared shared words", () => {
    const skills = [{ name: "zulu", description: "alpha yankee" }];
    expect(chooseSkill(prompt, skills, { ...loose, minShared: 2 })).toBeUndefined();
    expect(
      chooseSkill(prompt, [{ name: "zulu", description: "alpha bravo" }], { ...loose, minShared: 2 }),
    ).toBe("zulu");
  });

  it("uses the default cutoff of 0.25 and two shared words", () => {
    expect(defaultChoice.cutoff).toBe(0.25);
    expect(defaultChoice.minShared).toBe(2);
    expect(chooseSkill(prompt, [{ name: "zulu", description: "alpha yankee" }])).toBeUndefined();
    expect(chooseSkill(prompt, [{ name: "zulu", description: "alpha bravo" }])).toBe("zulu");
  });

  it("ignores Claude Code's built-in skills by default", () => {
    expect(builtinSkills).toContain("debug");
    const skills = [{ name: "debug", description: prompt }];
    expect(chooseSkill(prompt, skills)).toBeUndefined();
    expect(chooseSkill(prompt, skills, { ...defaultChoice, ignore: [] })).toBe("debug");
  });

  it("prefers the highest score, whatever the order", () => {
    const skills = [
      { name: "some", description: "alpha bravo" },
      { name: "most", description: "alpha bravo charlie" },
    ];
    expect(chooseSkill(prompt, skills, loose)).toBe("most");
  });

  it("gives a tie to the skill listed first", () => {
    const skills = [
      { name: "first", description: "alpha bravo" },
      { name: "second", description: "charlie delta" },
    ];
    expect(chooseSkill(prompt, skills, loose)).toBe("first");
    expect(chooseSkill(prompt, [...skills].reverse(), loose)).toBe("second");
  });

  it("chooses nothing for a prompt without content words", () => {
    expect(chooseSkill("can you do this for me?", [{ name: "you", description: "can do this" }], loose)).toBe(
      undefined,
    );
  });

  it("chooses nothing from an empty list", () => {
    expect(chooseSkill(prompt, [], loose)).toBeUndefined();
  });
});
