import { describe, expect, it } from "vitest";
import { draftPrompt, readDraftAnswer } from "../../src/create/index.js";
import { judgeAnswer } from "../../src/sim/index.js";
import { contentPhrases, isStopword } from "../../src/sim/skill-choice.js";

const internalComms =
  "A set of resources to help me write all kinds of internal communications, using the formats that my company likes to use. Claude should use this skill whenever asked to write some sort of internal communications (status reports, leadership updates, 3P updates, company newsletters, FAQs, incident reports, project updates, etc.).";

function draft(name: string, description: string) {
  const prompt = draftPrompt({ name, description, skillMd: "---\nbody", triggers: 10, evals: 2 });
  const reading = readDraftAnswer(judgeAnswer(prompt, undefined)?.text ?? "", {
    name,
    triggers: 10,
    evals: 2,
  });
  if (!reading.ok) throw new Error(reading.reason);
  return reading.draft;
}

describe("contentPhrases", () => {
  it("keeps runs of content words that punctuation and stop words do not break", () => {
    expect(contentPhrases(internalComms)).toEqual(
      expect.arrayContaining(["internal communications", "status reports", "3P updates", "FAQs"]),
    );
    expect(contentPhrases("Turns a commit log (feat, fix) into per-column statistics - type")).toEqual([
      "turns",
      "commit log",
      "feat",
      "fix",
      "per-column statistics",
      "type",
    ]);
  });
});

describe("the simulator's drafts read like a person's requests", () => {
  it("asks for the description's phrases, never runs of stop words", () => {
    const { triggers, parsed } = draft("internal-comms", internalComms);
    const should = triggers.filter((t) => t.should_trigger).map((t) => t.query);
    expect(should[0]).toBe(
      "Can you help me with the internal communications? I also need the company likes.",
    );
    expect(should.some((q) => q.includes("3P updates"))).toBe(true);
    expect(parsed.evals[0]?.expectations).toEqual([
      "The output addresses the internal communications",
      "The output mentions the company likes",
    ]);
    for (const { query } of triggers) {
      expect(query).not.toMatch(/\b(whenever|user|asked)\b/i);
      // No two stop words of the description follow one another where a phrase should be.
      expect(query).not.toMatch(/the (a|to|of|this|that) /i);
    }
  });

  it("shares the skill-choice stop words", () => {
    expect(isStopword("whenever")).toBe(true);
    expect(isStopword("reports")).toBe(false);
  });
});
