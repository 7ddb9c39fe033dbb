import { describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { judgeAnswer } from "../../src/sim/index.js";
import { readEvaluatorAnswer, scoresFromText } from "../../src/tune/evaluator-answer.js";
import { buildEvaluatorPrompt } from "../../src/tune/evaluator-prompt.js";

const dimensions = { clarity: 80, completeness: 70, correctness: 75, effectiveness: 70, efficiency: 60 };

describe("the evaluator's answer", () => {
  it("reads the JSON from prose or a fence, with suggestions ordered by priority", () => {
    const answer = [
      "Here is my evaluation:",
      "```json",
      JSON.stringify({
        dimensions,
        strengths: ["Short"],
        weaknesses: ["No example"],
        suggestions: [
          { priority: "low", text: "Trim the intro" },
          { priority: "HIGH", text: "Add an example of card.txt" },
          "Say when to stop",
          { priority: "urgent", text: "  " },
          { priority: "urgent", text: "Name the file" },
        ],
      }),
      "```",
    ].join("\n");
    expect(readEvaluatorAnswer(answer)).toEqual({
      dimensions,
      strengths: ["Short"],
      weaknesses: ["No example"],
      suggestions: [
        "[high] Add an example of card.txt",
        "[medium] Say when to stop",
        "[medium] Name the file",
        "[low] Trim the intro",
      ],
    });
  });

  it("refuses a dimension outside 0–100 or missing", () => {
    expect(
      readEvaluatorAnswer(JSON.stringify({ dimensions: { ...dimensions, clarity: 150 } })),
    ).toBeUndefined();
    expect(readEvaluatorAnswer(JSON.stringify({ dimensions: { clarity: 80 } }))).toBeUndefined();
    expect(readEvaluatorAnswer("no json here")).toBeUndefined();
  });

  it("picks the five scores out of text when the answer is not JSON (the seed's heuristic)", () => {
    const text = "Clarity: 80\n**Completeness** - 70\ncorrectness = 75\nEffectiveness 70\nefficiency: 60/100";
    expect(scoresFromText(text)).toEqual(dimensions);
    expect(scoresFromText("Clarity: 80, the rest is fine")).toBeUndefined();
  });

  it("takes decimals and 100, refuses a score over 100, and reads the first mention of each dimension", () => {
    const text = (clarity: string) =>
      `clarity: ${clarity}\ncompleteness=100\n"correctness": 0\neffectiveness – 55\nefficiency 1.5\nclarity: 3`;
    expect(scoresFromText(text("72.5"))).toEqual({
      clarity: 72.5,
      completeness: 100,
      correctness: 0,
      effectiveness: 55,
      efficiency: 1.5,
    });
    expect(scoresFromText(text("101"))).toBeUndefined();
    expect(scoresFromText(text("100"))?.clarity).toBe(100);
  });

  it("gives suggestions without a priority the medium one, and keeps the first JSON object in the right shape", () => {
    const text = `${JSON.stringify({ note: "not it" })} ${JSON.stringify({
      dimensions,
      suggestions: [{ text: " Be brief " }, { priority: "Low", text: "x" }],
    })} ${JSON.stringify({ dimensions: { ...dimensions, clarity: 1 } })}`;
    expect(readEvaluatorAnswer(text)).toEqual({
      dimensions,
      strengths: [],
      weaknesses: [],
      suggestions: ["[medium] Be brief", "[low] x"],
    });
  });
});

describe("the evaluator's prompt and the simulator's scripted rubric", () => {
  const prompt = buildEvaluatorPrompt({
    skillName: "greeter",
    skillFiles: [{ path: "SKILL.md", content: "---\nname: greeter\n---\nBETTER-STEPS" }],
    passRate: 0.5,
    evals: [
      {
        name: "eval-1",
        prompt: "Make a card",
        passRate: 0.5,
        failed: [{ text: "card.txt names Ada", evidence: "card.txt says Hello" }],
        outputs: [{ path: "card.txt", content: "Hello" }],
      },
    ],
    previousScores: [61.5],
  });

  it("carries the marker, the skill's files, the failures with evidence and the earlier scores", () => {
    expect(prompt.prompt.startsWith("<skillgym-evaluator>")).toBe(true);
    expect(prompt.prompt).toContain('<file path="SKILL.md">');
    expect(prompt.prompt).toContain("- card.txt names Ada\n  evidence: card.txt says Hello");
    expect(prompt.prompt).toContain("Expectation pass rate over the runs: 50%");
    expect(prompt.prompt).toContain("earlier versions (0–100, oldest first): 61.5");
    expect(prompt.system).not.toContain("<skillgym-");
  });

  it("is answered from the script: the first matching case, dimension overrides, else the default", () => {
    const script = SimScript.parse({
      judge: {
        rubric: {
          default: 40,
          when: [
            { match: "WORSE", score: 10 },
            { match: "better-steps", score: 85, dimensions: { efficiency: 50 }, suggestions: ["Add tips"] },
          ],
        },
      },
    });
    const answered = judgeAnswer(`${prompt.system}\n${prompt.prompt}`, script.judge);
    expect(answered?.kind).toBe("evaluator");
    expect(readEvaluatorAnswer(answered?.text ?? "")).toMatchObject({
      dimensions: { clarity: 85, completeness: 85, correctness: 85, effectiveness: 85, efficiency: 50 },
      suggestions: ["[high] Add tips"],
    });
    const plain = judgeAnswer(prompt.prompt.replace("BETTER-STEPS", "plain"), script.judge);
    expect(readEvaluatorAnswer(plain?.text ?? "")?.dimensions.clarity).toBe(40);
    const unscripted = judgeAnswer(prompt.prompt, undefined);
    expect(readEvaluatorAnswer(unscripted?.text ?? "")?.dimensions.correctness).toBe(70);
  });

  it("rejects a rubric score outside 0–100 in a sim script", () => {
    expect(SimScript.safeParse({ judge: { rubric: { default: 101 } } }).success).toBe(false);
  });
});
