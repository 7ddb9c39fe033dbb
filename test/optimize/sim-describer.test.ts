import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createJudge } from "../../src/judge/create.js";
import { buildImproverPrompt, type ImproverInput, proposeDescription } from "../../src/optimize/index.js";
import { chooseSkill, describerAnswer, type SimServer, startSim } from "../../src/sim/index.js";

const input: ImproverInput = {
  skillName: "release-notes",
  currentDescription: "Formats documents for publishing.",
  skillBody: "Write RELEASE_NOTES.md.",
  threshold: 0.5,
  trainFailures: [
    { query: "Draft the release notes from these commits", should_trigger: true, trigger_rate: 0 },
    { query: "Prepare release notes for version 2", should_trigger: true, trigger_rate: 0 },
    { query: "Publish the quarterly budget spreadsheet", should_trigger: false, trigger_rate: 1 },
  ],
  attempts: [],
};

describe("the simulator's improver", () => {
  it("appends the missed should-trigger queries' words, not the false triggers'", () => {
    const { system, prompt } = buildImproverPrompt(input);
    const answer = describerAnswer(`${system}\n${prompt}`);
    expect(answer).toBe(
      "Formats documents for publishing. Use when the user asks about draft, release, notes, commits, prepare, version.",
    );
    expect(answer).not.toMatch(/budget|spreadsheet|quarterly/);
  });

  it("raises recall on an unseen query that shares words with the missed ones", () => {
    const { system, prompt } = buildImproverPrompt(input);
    const unseen = "write release notes for the new version";
    const skill = (description: string) => [{ name: "scribe-sg-1a2b3c4d", description }];
    expect(chooseSkill(unseen, skill(input.currentDescription))).toBeUndefined();
    expect(chooseSkill(unseen, skill(describerAnswer(`${system}\n${prompt}`)))).toBe("scribe-sg-1a2b3c4d");
  });

  it("stays within 1024 characters, and answers the description unchanged when nothing was missed", () => {
    const long = { ...input, currentDescription: "word ".repeat(180).trim() };
    const many = {
      ...long,
      trainFailures: Array.from({ length: 40 }, (_, i) => ({
        query: `alpha${i} bravo${i} charlie${i} delta${i}`,
        should_trigger: true,
        trigger_rate: 0,
      })),
    };
    const { system, prompt } = buildImproverPrompt(many);
    const answer = describerAnswer(`${system}\n${prompt}`);
    expect([...answer].length).toBeLessThanOrEqual(1024);
    expect(answer).toContain("Use when the user asks about alpha0");
    const none = buildImproverPrompt({ ...input, trainFailures: [input.trainFailures[2]!] });
    expect(describerAnswer(`${none.system}\n${none.prompt}`)).toBe(input.currentDescription);
  });
});

describe("the sim judge as improver", () => {
  let sim: SimServer;
  beforeEach(async () => {
    sim = await startSim();
  });
  afterEach(() => sim.close());

  it("answers a describer prompt over the Messages API with the plain new description", async () => {
    const judge = await createJudge({ backend: "sim", simulatorUrl: sim.url });
    const proposal = await proposeDescription(judge, input);
    expect(proposal.description).toMatch(
      /^Formats documents for publishing\. Use when the user asks about draft/,
    );
    expect(proposal.asks).toBe(1);
    expect(sim.log.map((e) => e.action)).toEqual(["judge describer"]);
  });
});
