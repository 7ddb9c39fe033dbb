import { describe, expect, it } from "vitest";
import { z } from "zod";
import { askForJson, extractJsonObject } from "../../src/compare/judge-json.js";
import { JudgeError } from "../../src/judge/judge.js";
import { scriptedJudge } from "../judge/scripted-judge.js";

const Verdict = z.object({ winner: z.enum(["A", "B"]), score: z.number() });
const request = { system: "Be a judge.", prompt: "Which is better?", maxTokens: 100 };
const retryNote = (problem: string) =>
  `Which is better?\n\nYour previous answer could not be used: ${problem}\n` +
  "Answer again with exactly ONE JSON object in the format described above, and nothing else.";

describe("askForJson", () => {
  it("returns the first usable answer, asked with the prompt as given", async () => {
    const judge = scriptedJudge(['Here: {"winner": "A", "score": 3}']);
    const answer = await askForJson({ judge, request, schema: Verdict, role: "comparator" });
    expect(answer).toEqual({
      value: { winner: "A", score: 3 },
      model: "scripted",
      simulated: true,
      costUsd: 0.01,
      attempts: 1,
    });
    expect(judge.requests).toEqual([request]);
  });

  it("asks once more with the reason, and adds up both attempts' cost", async () => {
    const judge = scriptedJudge([
      { text: "I think A wins.", costUsd: 0.02 },
      { text: '```json\n{"winner": "B", "score": 1}\n```', costUsd: 0.03 },
    ]);
    const answer = await askForJson({ judge, request, schema: Verdict, role: "comparator" });
    expect(answer.value).toEqual({ winner: "B", score: 1 });
    expect(answer.attempts).toBe(2);
    expect(answer.costUsd).toBeCloseTo(0.05);
    expect(judge.requests.map((r) => r.prompt)).toEqual([
      "Which is better?",
      retryNote("it contains no JSON object"),
    ]);
    expect(judge.requests[1]?.system).toBe("Be a judge.");
  });

  it("names where the JSON does not match the format, at most five places", async () => {
    const Wide = z.object({
      a: z.number(),
      b: z.number(),
      c: z.number(),
      d: z.number(),
      e: z.number(),
      f: z.number(),
    });
    const judge = scriptedJudge(["{}", "{}"]);
    const error = await askForJson({ judge, request, schema: Wide, role: "analyzer" }).catch(
      (e: unknown) => e,
    );
    const problem =
      "the JSON does not match the format (a: Invalid input: expected number, received undefined; " +
      "b: Invalid input: expected number, received undefined; c: Invalid input: expected number, received undefined; " +
      "d: Invalid input: expected number, received undefined; e: Invalid input: expected number, received undefined)";
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).message).toBe(
      `the analyzer's answer could not be used after 2 attempts: ${problem}`,
    );
    expect((error as JudgeError).retryable).toBe(false);
    expect((error as JudgeError).costUsd).toBeCloseTo(0.02);
    expect(judge.requests[1]?.prompt).toBe(retryNote(problem));
  });

  it("counts the first attempt's cost into a judge failure on the second", async () => {
    const failure = new JudgeError("the judge failed: 529 overloaded", true, { costUsd: 0.005 });
    const judge = scriptedJudge([{ text: "no JSON here", costUsd: 0.02 }, failure]);
    const error = (await askForJson({ judge, request, schema: Verdict, role: "comparator" }).catch(
      (e: unknown) => e,
    )) as JudgeError;
    expect(error).toBeInstanceOf(JudgeError);
    expect({ message: error.message, retryable: error.retryable }).toEqual({
      message: "the judge failed: 529 overloaded",
      retryable: true,
    });
    expect(error.costUsd).toBeCloseTo(0.025);
  });

  it("passes a judge failure on the first attempt on as it is", async () => {
    const failure = new JudgeError("the judge failed: 401", false);
    const judge = scriptedJudge([failure]);
    const error = await askForJson({ judge, request, schema: Verdict, role: "comparator" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBe(failure);
  });

  it("calls a problem of the whole object the top level", async () => {
    const Whole = z.object({ a: z.number() }).refine((v) => v.a > 0, "a must be positive");
    const judge = scriptedJudge(['{"a": 0}', '{"a": -1}']);
    await expect(askForJson({ judge, request, schema: Whole, role: "comparator" })).rejects.toThrow(
      "the comparator's answer could not be used after 2 attempts: the JSON does not match the format " +
        "((top level): a must be positive)",
    );
  });

  it("checks the answer after the normalize step has corrected it", async () => {
    const judge = scriptedJudge(['{"winner": "a", "score": 2}']);
    const answer = await askForJson({
      judge,
      request,
      schema: Verdict,
      role: "comparator",
      normalize: (data) => ({ ...data, winner: String(data.winner).toUpperCase() }),
    });
    expect(answer.value).toEqual({ winner: "A", score: 2 });
  });
});

describe("extractJsonObject", () => {
  it("finds the first object in prose, and nothing in text without one", () => {
    expect(extractJsonObject('Verdict: {"winner": "A"} and {"winner": "B"}')).toEqual({ winner: "A" });
    expect(extractJsonObject("no json here")).toBeUndefined();
  });
});
