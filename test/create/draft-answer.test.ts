import { describe, expect, it } from "vitest";
import { readDraftAnswer } from "../../src/create/draft-answer.js";

const positive = { query: "turn sales.csv into a table", should_trigger: true };
const negative = { query: "what's the weather in Lisbon", should_trigger: false };
const anEval = { id: "draft-1", prompt: "tabulate data.csv", expectations: ["a table"] };

const read = (answer: unknown, triggers: number, evals: number) =>
  readDraftAnswer(typeof answer === "string" ? answer : JSON.stringify(answer), {
    name: "csv-tables",
    triggers,
    evals,
  });

describe("readDraftAnswer", () => {
  it("reads the object holding both triggers and evals, past other objects in the prose", () => {
    const answer = { triggers: [positive, negative], evals: [anEval] };
    const text = `Notes first {"triggers": "to do"} and {"evals": 0}, then the draft: ${JSON.stringify(answer)}`;
    expect(read(text, 2, 1)).toEqual({
      ok: true,
      draft: {
        triggers: [positive, negative],
        evals: [anEval],
        parsed: { evals: [{ ...anEval, numericId: 1, files: [], checks: [] }] },
      },
    });
  });

  it("names at most five of the answer's shape problems, by their path", () => {
    const triggers = Array.from({ length: 7 }, (_, i) => ({ query: `q${i}` }));
    const missing = (i: number) =>
      `answer.triggers.${i}.should_trigger: Invalid input: expected boolean, received undefined`;
    expect(read({ triggers, evals: [] }, 0, 0)).toEqual({
      ok: false,
      reason: [0, 1, 2, 3, 4].map(missing).join("; "),
    });
  });

  it("names an eval that breaks the evals contract, by its path", () => {
    expect(read({ triggers: [positive, negative], evals: [{ id: "x" }] }, 2, 1)).toEqual({
      ok: false,
      reason: "answer.evals.0.prompt: Invalid input: expected string, received undefined",
    });
  });

  it("refuses empty triggers when some were asked for", () => {
    expect(read({ triggers: [], evals: [anEval] }, 1, 1)).toEqual({
      ok: false,
      reason: "answer.triggers is empty",
    });
  });

  it("accepts empty triggers and empty evals when none were asked for", () => {
    expect(read({ triggers: [], evals: [] }, 0, 0)).toMatchObject({ ok: true });
  });

  it("accepts a single trigger query on one side when one was asked for", () => {
    expect(read({ triggers: [positive], evals: [anEval] }, 1, 1)).toMatchObject({ ok: true });
  });

  for (const [side, query] of [
    ["should-trigger", positive],
    ["near-miss", negative],
  ] as const) {
    it(`refuses only ${side} queries when two or more were asked for`, () => {
      expect(read({ triggers: [query, query], evals: [anEval] }, 2, 1)).toEqual({
        ok: false,
        reason: "answer.triggers needs queries on both sides (should_trigger true and false)",
      });
    });
  }

  it("refuses empty evals when some were asked for", () => {
    expect(read({ triggers: [positive, negative], evals: [] }, 2, 1)).toEqual({
      ok: false,
      reason: "answer.evals is empty",
    });
  });

  it("names every eval whose id cannot name a run folder", () => {
    const evals = [
      { ...anEval, id: "a/b" },
      { ...anEval, id: ".." },
    ];
    expect(read({ triggers: [positive, negative], evals }, 2, 2)).toEqual({
      ok: false,
      reason:
        'answer.evals[0].id: "a/b" cannot be used as a folder name; answer.evals[1].id: ".." cannot be used as a folder name',
    });
  });
});
