import { describe, expect, it } from "vitest";
import { readCurrentDescription, readTrainFailures } from "../../src/contracts/describer-protocol.js";
import { JudgeError } from "../../src/judge/judge.js";
import {
  buildImproverPrompt,
  type ImproverInput,
  proposeDescription,
  readDescriptionAnswer,
} from "../../src/optimize/index.js";
import { scriptedJudge } from "../judge/scripted-judge.js";

const input: ImproverInput = {
  skillName: "release-notes",
  currentDescription: "Formats documents.",
  skillBody: "# Release notes\nWrite RELEASE_NOTES.md from the commits.\n",
  threshold: 0.5,
  trainFailures: [
    { query: "draft the release notes for 2.0", should_trigger: true, trigger_rate: 0 },
    { query: "format this <b>table</b>", should_trigger: false, trigger_rate: 1 },
  ],
  attempts: [
    { iteration: 0, description: "Formats documents.", trainScore: 0.5, trainPassed: 2, trainTotal: 4 },
  ],
};

describe("the improver's prompt", () => {
  it("carries the describer marker, the current description, the train failures and earlier attempts", () => {
    const { system, prompt } = buildImproverPrompt(input);
    expect(system.startsWith("<skillgym-describer>")).toBe(true);
    expect(system).toContain("1024");
    expect(readCurrentDescription(prompt)).toBe("Formats documents.");
    expect(readTrainFailures(prompt)).toEqual(input.trainFailures);
    expect(prompt).toContain("1 missed");
    expect(prompt).toContain("1 false triggers");
    expect(prompt).toContain("iteration 0: train accuracy 50%, 2/4 train queries passed");
    expect(prompt).toContain("Write RELEASE_NOTES.md from the commits.");
    // A query cannot close the failures block early.
    expect(prompt).not.toContain("<b>table");
  });
});

describe("reading the improver's answer", () => {
  it.each([
    ["Writes release notes. Use when asked.", "Writes release notes. Use when asked."],
    ['"Writes release notes."', "Writes release notes."],
    ["```\nWrites release notes.\n```", "Writes release notes."],
    ["```text\nDescription: Writes\n  release notes.\n```", "Writes release notes."],
    ["“Writes release notes.”", "Writes release notes."],
  ])("tolerates %j", (answer, expected) => {
    expect(readDescriptionAnswer(answer)).toEqual({ description: expected });
  });

  it("refuses an empty answer, one over 1024 characters, and one with < or >", () => {
    expect(readDescriptionAnswer("  ")).toEqual({ problem: "it was empty" });
    expect(readDescriptionAnswer("x".repeat(1025))).toEqual({
      problem: "it has 1025 characters, more than the limit of 1024",
    });
    expect(readDescriptionAnswer("x".repeat(1024))).toEqual({ description: "x".repeat(1024) });
    expect(readDescriptionAnswer("Use for <html> pages")).toHaveProperty("problem");
  });
});

describe("proposeDescription", () => {
  it("re-asks once, saying why, when the answer has 1025 characters", async () => {
    const judge = scriptedJudge([
      "y".repeat(1025),
      "Writes release notes. Use when asked for release notes.",
    ]);
    const proposal = await proposeDescription(judge, input);
    expect(proposal.description).toBe("Writes release notes. Use when asked for release notes.");
    expect(proposal.asks).toBe(2);
    expect(proposal.problems).toEqual(["it has 1025 characters, more than the limit of 1024"]);
    expect(proposal.costUsd).toBeCloseTo(0.02, 10);
    expect(judge.requests).toHaveLength(2);
    expect(judge.requests[0]!.prompt).not.toContain("could not be used");
    expect(judge.requests[1]!.prompt).toContain(
      "Your previous answer could not be used: it has 1025 characters, more than the limit of 1024",
    );
    expect(judge.requests[1]!.prompt.startsWith(judge.requests[0]!.prompt)).toBe(true);
  });

  it("records an error and proposes nothing when the second answer is bad too", async () => {
    const judge = scriptedJudge(["y".repeat(1025), "z".repeat(2000), "never asked"]);
    const proposal = await proposeDescription(judge, input);
    expect(proposal.description).toBeUndefined();
    expect(judge.requests).toHaveLength(2);
    expect(proposal.error).toMatch(/no usable description after 2 asks: it has 1025 .*; then it has 2000/);
    expect(proposal.error).toContain("the previous description is kept");
  });

  it("turns a judge failure into an error, keeping what it cost", async () => {
    const judge = scriptedJudge([new JudgeError("overloaded", true, { costUsd: 0.03 })]);
    const proposal = await proposeDescription(judge, input);
    expect(proposal).toMatchObject({ error: "the improver failed: overloaded", costUsd: 0.03, asks: 0 });
  });
});
