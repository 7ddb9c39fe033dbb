import { describe, expect, it } from "vitest";
import { SimJudge, SimScript } from "../../src/contracts/sim-script.js";
import { buildGraderPrompt } from "../../src/judge/grader.js";
import { judgeAnswer, simulatedVerdict } from "../../src/sim/index.js";
import { createSimModel } from "../../src/sim/model.js";

const DEFAULT = "Simulated verdict (skillgym sim)";

function graderPrompt(outputs: { path: string; content?: string }[]): string {
  const { system, prompt } = buildGraderPrompt({
    prompt: "Write notes.md",
    expectations: ["notes.md has a title", "The tone is friendly"],
    outputs,
    transcript: "",
  });
  return `${system}\n${prompt}`;
}

function graded(text: string, judge: unknown, ask?: Parameters<typeof judgeAnswer>[2]) {
  const answer = judgeAnswer(text, judge === undefined ? undefined : SimJudge.parse(judge), ask);
  expect(answer?.kind).toBe("grader");
  return JSON.parse(answer?.text ?? "") as {
    expectations: { text: string; passed: boolean; evidence: string }[];
    claims: unknown[];
    user_notes_summary: unknown;
  };
}

describe("the sim grader's answer", () => {
  it("has a verdict per expectation, no claims and empty user notes", () => {
    expect(graded(graderPrompt([{ path: "notes.md", content: "# Notes" }]), undefined)).toEqual({
      expectations: [
        { text: "notes.md has a title", passed: true, evidence: DEFAULT },
        { text: "The tone is friendly", passed: true, evidence: DEFAULT },
      ],
      claims: [],
      user_notes_summary: { uncertainties: [], needs_review: [], workarounds: [] },
    });
  });

  it("takes the first rule whose match fits, with its evidence, and the judge's default for the rest", () => {
    const judge = {
      default: "fail",
      verdicts: [
        { match: "TITLE", passed: true, evidence: "has # Notes" },
        { match: "title", passed: false },
      ],
    };
    expect(graded(graderPrompt([]), judge).expectations).toEqual([
      { text: "notes.md has a title", passed: true, evidence: "has # Notes" },
      { text: "The tone is friendly", passed: false, evidence: DEFAULT },
    ]);
  });

  it("applies a `when` rule only when the run's evidence matches it, not the expectations themselves", () => {
    const judge = { verdicts: [{ match: "title", passed: false, when: "# Notes" }] };
    const passed = (outputs: { path: string; content?: string }[]) =>
      graded(graderPrompt(outputs), judge).expectations.map((e) => e.passed);
    expect(passed([{ path: "notes.md", content: "# Notes" }])).toEqual([false, true]);
    expect(passed([{ path: "notes.md", content: "plain" }])).toEqual([true, true]);
    const shouting = { verdicts: [{ match: "title", passed: false, when: "# NOTES" }] };
    expect(
      graded(graderPrompt([{ path: "notes.md", content: "# Notes" }]), shouting).expectations[0]?.passed,
    ).toBe(false);
    const onExpectation = { verdicts: [{ match: "title", passed: false, when: "friendly" }] };
    expect(graded(graderPrompt([{ path: "notes.md" }]), onExpectation).expectations[0]?.passed).toBe(true);
  });

  it("applies a `judge_model` rule only to a judge whose model matches, an unnamed judge's being empty", () => {
    const judge = { verdicts: [{ match: "title", passed: false, judge_model: "^strict$" }] };
    const first = (model?: string) => graded(graderPrompt([]), judge, { model }).expectations[0]?.passed;
    expect(first("STRICT")).toBe(false);
    expect(first("lenient")).toBe(true);
    expect(first(undefined)).toBe(true);
    const unnamed = { verdicts: [{ match: "title", passed: false, judge_model: "^$" }] };
    expect(graded(graderPrompt([]), unnamed).expectations[0]?.passed).toBe(false);
    expect(graded(graderPrompt([]), unnamed, { model: "strict" }).expectations[0]?.passed).toBe(true);
  });

  it("alternates a `flips` rule's verdict on every second ask of the same prompt", () => {
    const judge = { verdicts: [{ match: "title", passed: true, flips: true }] };
    const first = (previousAsks?: number) =>
      graded(graderPrompt([]), judge, { previousAsks }).expectations[0]?.passed;
    expect([first(undefined), first(0), first(1), first(2), first(3)]).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
    const steady = { verdicts: [{ match: "title", passed: true }] };
    expect(graded(graderPrompt([]), steady, { previousAsks: 1 }).expectations[0]?.passed).toBe(true);
  });

  it("lists no verdict when the prompt carries no expectations block", () => {
    expect(graded("<skillgym-grader>\nno block here", undefined).expectations).toEqual([]);
  });
});

describe("the sim model's count of a judge's asks", () => {
  it("counts each judge model's asks of each prompt apart, even when one's model and prompt run into the other's", () => {
    const model = createSimModel(
      SimScript.parse({ judge: { verdicts: [{ match: "title", passed: true, flips: true }] } }),
    );
    const passed = (judgeModel: string, judgeText: string) => {
      const reply = model.reply({
        conversation: {
          prompt: judgeText,
          cwd: undefined,
          skills: [],
          turn: 0,
          hasTools: false,
          model: judgeModel,
        },
        judgeText,
        session: judgeModel,
      });
      const [block] = reply.content;
      return JSON.parse(block?.type === "text" ? block.text : "").expectations[0].passed;
    };
    const text = graderPrompt([]);
    expect(passed("judge", `-2${text}`)).toBe(true);
    expect(passed("judge-2", text)).toBe(true);
    expect(passed("judge-2", text)).toBe(false);
    expect(passed("judge", text)).toBe(true);
  });
});

describe("simulatedVerdict", () => {
  it("passes by default, and follows the judge's default when no rule fits", () => {
    expect(simulatedVerdict("anything", undefined)).toEqual({
      text: "anything",
      passed: true,
      evidence: DEFAULT,
    });
    expect(simulatedVerdict("anything", SimJudge.parse({ default: "fail" })).passed).toBe(false);
    expect(simulatedVerdict("anything", SimJudge.parse({ default: "pass" })).passed).toBe(true);
  });
});

describe("judgeAnswer", () => {
  it("answers nothing to a text without a judge marker", () => {
    expect(judgeAnswer("Write notes.md", undefined)).toBeUndefined();
  });
});
