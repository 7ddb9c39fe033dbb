import { describe, expect, it } from "vitest";
import { buildImproverPrompt, readDescriptionAnswer } from "../../src/optimize/index.js";

const instructions = [
  "Write a better description: one that makes the agent load the skill for requests like the missed ones and not " +
    "for requests like the false triggers. Generalize to the kind of request; do not list these requests word " +
    "for word. Answer with the new description only.",
];

describe("the improver's prompt, word for word", () => {
  it("lists the failures, each earlier attempt with its train score, and the trimmed body", () => {
    const { prompt } = buildImproverPrompt({
      skillName: "release-notes",
      currentDescription: "Formats documents.",
      skillBody: "\n  # Release notes\nWrite it.\n\n",
      threshold: 0.5,
      trainFailures: [
        { query: "draft the notes", should_trigger: true, trigger_rate: 0 },
        { query: "format this", should_trigger: false, trigger_rate: 1 },
      ],
      attempts: [
        { iteration: 0, description: "Formats documents.", trainScore: 0.5, trainPassed: 2, trainTotal: 4 },
        { iteration: 1, description: "Writes notes.", trainScore: null, trainPassed: 0, trainTotal: 0 },
      ],
    });
    expect(prompt.split("\n")).toEqual([
      "Skill name: release-notes",
      "",
      "The current description:",
      "<current-description>",
      "Formats documents.",
      "</current-description>",
      "",
      "Requests it got wrong (1 missed: should load the skill but did not; 1 false triggers: loaded it but should " +
        "not). trigger_rate is the share of runs in which the agent loaded the skill; a request counts as loading it " +
        "at 50% or more.",
      "<train-failures>",
      ...JSON.stringify(
        [
          { query: "draft the notes", should_trigger: true, trigger_rate: 0 },
          { query: "format this", should_trigger: false, trigger_rate: 1 },
        ],
        null,
        2,
      ).split("\n"),
      "</train-failures>",
      "",
      "Descriptions tried so far and how they did on these queries (do not repeat one):",
      "- iteration 0: train accuracy 50%, 2/4 train queries passed",
      "  Formats documents.",
      "- iteration 1: train accuracy n/a, 0/0 train queries passed",
      "  Writes notes.",
      "",
      "The skill's instructions (the body of its SKILL.md), for what it really does:",
      "<skill-body>",
      "# Release notes",
      "Write it.",
      "</skill-body>",
      "",
      ...instructions,
    ]);
  });

  it("has no attempts section before the first attempt", () => {
    const { prompt } = buildImproverPrompt({
      skillName: "s",
      currentDescription: "d",
      skillBody: "b",
      threshold: 0.75,
      trainFailures: [],
      attempts: [],
    });
    expect(prompt.split("\n")).toEqual([
      "Skill name: s",
      "",
      "The current description:",
      "<current-description>",
      "d",
      "</current-description>",
      "",
      "Requests it got wrong (0 missed: should load the skill but did not; 0 false triggers: loaded it but should " +
        "not). trigger_rate is the share of runs in which the agent loaded the skill; a request counts as loading it " +
        "at 75% or more.",
      "<train-failures>",
      "[]",
      "</train-failures>",
      "",
      "The skill's instructions (the body of its SKILL.md), for what it really does:",
      "<skill-body>",
      "b",
      "</skill-body>",
      "",
      ...instructions,
    ]);
  });
});

describe("reading the improver's answer, edge by edge", () => {
  it.each([
    ["a fence after blank lines", "\n  ```\nWrites notes.\n```  \n", "Writes notes."],
    ["a fence with spaces after its language", "```text  \nWrites notes.\n```", "Writes notes."],
    ["a fence closed on the description's line", "```\nWrites notes.```", "Writes notes."],
    ["an indented label inside a fence", "```\n  Description: Writes notes.\n```", "Writes notes."],
    ["a label with a space before its colon", "Description : Writes notes.", "Writes notes."],
    ["a label with no space after its colon", "Description:Writes notes.", "Writes notes."],
    ["a label with two spaces after New", "New  description: Writes notes.", "Writes notes."],
    ["a label on a line of its own", "Description:\n  Writes notes.", "Writes notes."],
    ["a New label", "new Description: Writes notes.", "Writes notes."],
    ["spaces inside quotes", '"  Writes notes.  "', "Writes notes."],
  ])("unwraps %s", (_, answer, expected) => {
    expect(readDescriptionAnswer(answer)).toEqual({ description: expected });
  });

  it.each([
    ["text before a fence", "Here:\n```\nWrites notes.\n```", "Here: ``` Writes notes. ```"],
    ["text after a fence", "```\nWrites notes.\n``` done", "``` Writes notes. ``` done"],
    [
      "the word description with a colon mid-sentence",
      "Edits a skill's description: its first line.",
      "Edits a skill's description: its first line.",
    ],
    ["a lone quote mark", '"', '"'],
    ["a quote only at the end", 'Use for "release notes"', 'Use for "release notes"'],
    ["a quote only at the start", '"Release notes" and changelogs', '"Release notes" and changelogs'],
  ])("keeps %s as written", (_, answer, expected) => {
    expect(readDescriptionAnswer(answer)).toEqual({ description: expected });
  });

  it("takes a pair of empty quotes for an empty answer", () => {
    expect(readDescriptionAnswer('""')).toEqual({ problem: "it was empty" });
  });

  it("says why a description with < or > is refused", () => {
    expect(readDescriptionAnswer("Use for <html> pages")).toEqual({
      problem: "it contains < or >, which a description must not",
    });
  });
});
