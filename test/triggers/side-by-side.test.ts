import { describe, expect, it } from "vitest";
import type { TriggerQueryResult, TriggerResults } from "../../src/contracts/trigger-results.js";
import { SkillgymError } from "../../src/errors.js";
import { summarize } from "../../src/triggers/score.js";
import {
  checkConditionSets,
  flagOf,
  flagSentence,
  parseConditionNames,
  sideBySide,
} from "../../src/triggers/side-by-side.js";

const query = (rate: number | null, pass: boolean | null, shouldTrigger = true): TriggerQueryResult => ({
  query: "q",
  should_trigger: shouldTrigger,
  trigger_rate: rate,
  triggers: rate === null ? 0 : Math.round(rate * 2),
  runs: 2,
  errors: rate === null ? 2 : 0,
  pass,
});

describe("side by side", () => {
  it("flags a query passing in only one condition, and nothing when both agree or one has no verdict", () => {
    expect(flagOf(true, false)).toBe("clean-only");
    expect(flagOf(false, true)).toBe("real-only");
    expect(flagOf(true, true)).toBeUndefined();
    expect(flagOf(false, false)).toBeUndefined();
    expect(flagOf(null, false)).toBeUndefined();
    expect(flagOf(true, null)).toBeUndefined();
  });

  it("puts both outcomes, the difference (real minus clean) and the counts beside the real results", () => {
    const clean = [query(1, true), query(0, false), query(0.5, true), query(null, null)];
    const real = [query(0, false), query(1, true), query(0.5, true), query(1, true)];
    const realResults: TriggerResults = {
      skill_name: "s",
      description: "d",
      results: real,
      summary: summarize(real),
    };
    const out = sideBySide({ results: clean, summary: summarize(clean) }, realResults);
    expect(out.results.map((r) => r.side_by_side?.difference)).toEqual([-1, 1, 0, null]);
    expect(out.results.map((r) => r.side_by_side?.flag)).toEqual([
      "clean-only",
      "real-only",
      undefined,
      undefined,
    ]);
    expect(out.results[0]?.side_by_side?.clean.trigger_rate).toBe(1);
    expect(out.results[0]?.trigger_rate).toBe(0);
    expect(out.side_by_side).toMatchObject({ clean_only: 1, real_only: 1, conditions: ["clean", "real"] });
    expect(out.side_by_side?.clean_summary.passed).toBe(2);
  });

  it("reads the names, refusing unknown, repeated and empty lists, and real with nothing to be real with", () => {
    expect(parseConditionNames(["real", "clean"])).toEqual({ clean: true, real: true });
    expect(parseConditionNames(["clean"])).toEqual({ clean: true, real: false });
    expect(() => parseConditionNames(["dirty"])).toThrow('unknown condition "dirty"');
    expect(() => parseConditionNames(["real", "real"])).toThrow('"real" is named twice');
    expect(() => parseConditionNames([])).toThrow("name at least one condition");
    expect(() => checkConditionSets({ clean: true, real: true }, {})).toThrow('"real" needs a condition');
    expect(() => checkConditionSets({ clean: true, real: false }, {})).not.toThrow();
    expect(() => checkConditionSets({ clean: true, real: true }, { installed: [] })).toThrow();
    for (const given of [{ project: "/p" }, { installed: ["/l"] }, { context: "/c.json" }])
      expect(() => checkConditionSets({ clean: true, real: true }, given)).not.toThrow();
  });

  it("refuses a real set with nothing to be real with, naming the flag (or the place given) and what to give", () => {
    const refusal = (where?: string) => {
      try {
        checkConditionSets({ clean: false, real: true }, {}, where);
      } catch (error) {
        expect(error).toBeInstanceOf(SkillgymError);
        const { code, message, hint } = error as SkillgymError;
        return { code, message, hint };
      }
      return expect.unreachable();
    };
    const hint =
      "give the project, the installed skills or the prior conversation, or leave out --conditions";
    expect(refusal()).toEqual({
      code: "USAGE",
      message:
        '--conditions: "real" needs a condition to run under, and none was given (no --project-root, --installed or --context)',
      hint,
    });
    expect(refusal("evals.json conditions.sets")).toMatchObject({
      message: expect.stringMatching(/^evals\.json conditions\.sets: "real" needs a condition/),
      hint,
    });
  });

  it("says where the list was written and what the names are", () => {
    const refusal = (names: string[], where?: string) => {
      try {
        parseConditionNames(names, where);
      } catch (error) {
        expect(error).toBeInstanceOf(SkillgymError);
        const { code, message, hint } = error as SkillgymError;
        return { code, message, hint };
      }
      return expect.unreachable();
    };
    const names = 'give "clean", "real" or "clean,real"';
    expect(refusal([])).toEqual({
      code: "USAGE",
      message: "--conditions: name at least one condition",
      hint: names,
    });
    expect(refusal(["dirty"])).toEqual({
      code: "USAGE",
      message: '--conditions: unknown condition "dirty"',
      hint: 'the conditions are "clean" (an empty folder, no other skill, a fresh conversation) and "real" (the --project-root, --installed and --context given)',
    });
    expect(refusal(["clean", "clean"], "evals.json: conditions")).toEqual({
      code: "USAGE",
      message: 'evals.json: conditions: "clean" is named twice',
      hint: names,
    });
  });
});

describe("the sentence of a side-by-side flag", () => {
  it("says where a query fires or stays quiet, in a project's words or the conditions'", () => {
    const sentences = (project: boolean) =>
      [true, false].flatMap((shouldTrigger) =>
        (["clean-only", "real-only"] as const).map((flag) => flagSentence(flag, shouldTrigger, project)),
      );
    expect(sentences(true)).toEqual([
      "fires in an empty folder, not in your repository",
      "fires in your repository, not in an empty folder",
      "quiet in an empty folder, fires in your repository",
      "quiet in your repository, fires in an empty folder",
    ]);
    expect(sentences(false)).toEqual([
      "fires in the clean room, not under your conditions",
      "fires under your conditions, not in the clean room",
      "quiet in the clean room, fires under your conditions",
      "quiet under your conditions, fires in the clean room",
    ]);
  });
});
