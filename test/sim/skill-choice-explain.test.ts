import { describe, expect, it } from "vitest";
import { chooseSkill, contentWordList, explainChoice } from "../../src/sim/skill-choice.js";

// Anthropic's internal-comms skill, verbatim.
const internalComms = {
  name: "internal-comms",
  description:
    "A set of resources to help me write all kinds of internal communications, using the formats that my company likes to use. Claude should use this skill whenever asked to write some sort of internal communications (status reports, leadership updates, 3P updates, company newsletters, FAQs, incident reports, project updates, etc.).",
};
const pdf = {
  name: "pdf",
  description:
    "Comprehensive PDF manipulation toolkit for extracting text and tables, creating new PDFs, merging/splitting documents, and handling forms.",
};

describe("short tokens with digits", () => {
  it("counts letter-and-digit tokens such as 3P and v2, but not bare numbers or short words", () => {
    expect(contentWordList("a 3P update for v2 in 10 ok")).toEqual(["3p", "update", "v2"]);
    expect(contentWordList("?! -- ...")).toEqual([]);
  });
});

describe("auto choice of internal-comms", () => {
  it("picks internal-comms for a 3P update, through the token 3P and the phrase '3P updates'", () => {
    expect(chooseSkill("Draft the 3P update for the platform team", [pdf, internalComms])).toBe(
      "internal-comms",
    );
    const explained = explainChoice("Draft the 3P update for the platform team", [pdf, internalComms]);
    expect(explained.skills.find((s) => s.name === "internal-comms")?.shared).toEqual(["3p", "update"]);
  });

  it("counts a word whose plural ends in -ies through the phrase it forms", () => {
    const explained = explainChoice("update entries", [{ name: "x", description: "updates entry" }]);
    expect(explained.skills[0]?.shared).toEqual(["update", "entries"]);
  });

  it("does not count a phrase the description lacks", () => {
    const explained = explainChoice("update the platform", [internalComms]);
    expect(explained.skills[0]?.shared).toEqual([]);
  });
});

describe("explainChoice", () => {
  it("gives every skill its shared words, score and the reason it won or lost", () => {
    const skills = [
      { name: "debug", description: "alpha bravo charlie" },
      { name: "one", description: "alpha" },
      { name: "low", description: "alpha bravo" },
      { name: "best", description: "alpha bravo charlie" },
      { name: "tied", description: "alpha bravo charlie" },
    ];
    const explained = explainChoice("alpha bravo charlie delta echo foxtrot golf hotel india", skills);
    expect(explained).toMatchObject({ cutoff: 0.25, minShared: 2, chosen: "best" });
    expect(explained.promptWords).toHaveLength(9);
    const byName = Object.fromEntries(explained.skills.map((s) => [s.name, s]));
    expect(byName.debug?.reason).toContain("ignored");
    expect(byName.one).toMatchObject({ shared: ["alpha"], chosen: false });
    expect(byName.one?.reason).toContain("fewer than the 2 needed");
    expect(byName.low).toMatchObject({ score: 2 / 9, chosen: false });
    expect(byName.low?.reason).toContain("below the cutoff 25%");
    expect(byName.best).toMatchObject({
      shared: ["alpha", "bravo", "charlie"],
      score: 3 / 9,
      chosen: true,
      reason: "the highest score at or above the cutoff",
    });
    expect(byName.tied?.reason).toBe("best scored higher or was listed first");
  });

  it("says so when the prompt has no content words", () => {
    const explained = explainChoice("do it for me", [{ name: "x", description: "do it" }]);
    expect(explained.chosen).toBeUndefined();
    expect(explained.skills[0]).toMatchObject({
      shared: [],
      score: 0,
      reason: "the prompt has no content words",
    });
  });

  it("chooses a skill whose score is exactly the cutoff", () => {
    const explained = explainChoice("alpha bravo charlie delta echo foxtrot golf hotel", [
      { name: "edge", description: "alpha bravo" },
    ]);
    expect(explained.skills[0]).toMatchObject({
      score: 0.25,
      chosen: true,
      reason: "the highest score at or above the cutoff",
    });
  });

  it("counts the prompt's word forms of one stem once", () => {
    const explained = explainChoice("tests test testing", [{ name: "x", description: "test" }]);
    expect(explained.promptWords).toEqual(["tests"]);
    expect(explained.skills[0]).toMatchObject({ shared: ["tests"], score: 1 });
  });
});
