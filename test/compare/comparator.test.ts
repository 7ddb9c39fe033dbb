import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRng } from "../../src/compare/blind.js";
import { compareRuns } from "../../src/compare/comparator.js";
import { type RunSnapshot, readRun } from "../../src/compare/read-run.js";
import { JudgeError } from "../../src/judge/judge.js";
import {
  buildWorkspace,
  comparisonAnswer,
  EXPECTATIONS,
  makeTempDir,
  RecordingJudge,
  removeDir,
  TOKENS,
  tokenUnderA,
  type Workspace,
} from "./fixtures.js";

let root: string;
let ws: Workspace;
let withSkill: RunSnapshot;
let withoutSkill: RunSnapshot;

beforeAll(async () => {
  root = await makeTempDir();
  ws = await buildWorkspace(root);
  withSkill = await readRun(ws.withSkill);
  withoutSkill = await readRun(ws.withoutSkill);
});
afterAll(async () => {
  await removeDir(root);
});

describe("compareRuns", () => {
  it("shows the judge both outputs without configuration names or run paths", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
    const request = judge.requests[0];
    const shown = `${request?.system}\n${request?.prompt}`;
    expect(shown).toContain("<skillgym-comparator>");
    expect(shown).toContain("## Output A");
    expect(shown).toContain("## Output B");
    expect(shown).toContain(TOKENS.with_skill);
    expect(shown).toContain(TOKENS.without_skill);
    for (const expectation of EXPECTATIONS) expect(shown).toContain(expectation);
    expect(shown).toContain("File `notes/extra.txt`");
    expect(shown).toContain("File `chart.png` (binary, 9 bytes; content not shown)");
    expect(shown).not.toMatch(/with_skill|without_skill|old_skill/i);
    expect(shown).not.toContain(root);
    expect(shown).not.toContain(ws.withSkill);
    expect(shown).not.toContain("1-with");
    expect(shown).not.toContain("METRICS-SHOULD-NOT-SHOW");
    expect(shown).not.toContain("report-writer");
    expect(request?.workspaceDir).toBeUndefined();
  });

  it("shuffles the labels: both mappings occur, about half each", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    let firstIsA = 0;
    for (let i = 0; i < 200; i++) {
      const result = await compareRuns({ judge, runA: withSkill, runB: withoutSkill, rng: Math.random });
      const seen = tokenUnderA(judge.requests[i]?.prompt ?? "");
      // The mapping must say what the judge really saw under A.
      expect(seen).toBe(result.mapping.A === withSkill.runDir ? TOKENS.with_skill : TOKENS.without_skill);
      if (result.labels.A === "first") firstIsA++;
    }
    expect(firstIsA).toBeGreaterThan(60);
    expect(firstIsA).toBeLessThan(140);
  });

  it("shuffles with crypto randomness when no rng is given", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const seen = new Set<string | undefined>();
    for (let i = 0; i < 64; i++) {
      await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
      seen.add(tokenUnderA(judge.requests[i]?.prompt ?? ""));
    }
    expect(seen).toEqual(new Set([TOKENS.with_skill, TOKENS.without_skill]));
  });

  it("labels the same way for the same seed", async () => {
    const sequence = async (seed: number) => {
      const judge = new RecordingJudge(() => comparisonAnswer("A"));
      const rng = seededRng(seed);
      const labels: string[] = [];
      for (let i = 0; i < 16; i++)
        labels.push((await compareRuns({ judge, runA: withSkill, runB: withoutSkill, rng })).labels.A);
      return labels;
    };
    const once = await sequence(7);
    expect(await sequence(7)).toEqual(once);
    expect(new Set(once).size).toBe(2);
  });

  it("maps the winner back to the run the judge preferred", async () => {
    // The judge prefers whichever label holds the with_skill token.
    const judge = new RecordingJudge((request) =>
      comparisonAnswer(tokenUnderA(request.prompt) === TOKENS.with_skill ? "A" : "B"),
    );
    const winners = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const result = await compareRuns({ judge, runA: withoutSkill, runB: withSkill, rng: Math.random });
      winners.add(result.comparison.winner);
      expect(result.winnerRunDir).toBe(withSkill.runDir);
    }
    expect(winners).toEqual(new Set(["A", "B"]));
  });

  it("gives no winning run for a tie", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("TIE"));
    const result = await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
    expect(result.comparison.winner).toBe("TIE");
    expect(result.winnerRunDir).toBeNull();
  });

  it("recomputes the derived scores and expectation counts", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const { comparison } = await compareRuns({
      judge,
      runA: withSkill,
      runB: withoutSkill,
      rng: seededRng(1),
    });
    expect(comparison.rubric.A).toMatchObject({ content_score: 4.7, structure_score: 5, overall_score: 9.7 });
    expect(comparison.rubric.B).toMatchObject({ content_score: 2.7, structure_score: 3, overall_score: 5.7 });
    expect(comparison.expectation_results?.A).toMatchObject({ passed: 1, total: 2, pass_rate: 0.5 });
  });

  it("reads an answer wrapped in prose and a fence", async () => {
    const judge = new RecordingJudge(
      () => `Here is my verdict:\n\n\`\`\`json\n${comparisonAnswer("B")}\n\`\`\`\nHope that {helps}.`,
    );
    const result = await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
    expect(result.comparison.winner).toBe("B");
    expect(judge.requests).toHaveLength(1);
  });

  it("asks once more after an unusable answer, saying why", async () => {
    const judge = new RecordingJudge((_, i) => (i === 0 ? '{"winner": "C"}' : comparisonAnswer("A")));
    const result = await compareRuns({ judge, runA: withSkill, runB: withoutSkill });
    expect(result.comparison.winner).toBe("A");
    expect(judge.requests).toHaveLength(2);
    expect(judge.requests[1]?.prompt).toContain("Your previous answer could not be used");
    expect(judge.requests[1]?.prompt).toContain("winner");
    expect(result.costUsd).toBeCloseTo(0.02);
  });

  it("fails with a judge error after a second unusable answer", async () => {
    const judge = new RecordingJudge(() => "I prefer the first one.");
    const error = await compareRuns({ judge, runA: withSkill, runB: withoutSkill }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).message).toContain("comparator");
    expect((error as JudgeError).message).toContain("no JSON object");
    expect(judge.requests).toHaveLength(2);
  });

  it("refuses runs of different prompts before asking the judge", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const other = { ...withoutSkill, prompt: "Something else entirely" };
    await expect(compareRuns({ judge, runA: withSkill, runB: other })).rejects.toThrow(/different prompts/);
    expect(judge.requests).toHaveLength(0);
  });

  it("leaves expectation results out when the eval has none", async () => {
    const judge = new RecordingJudge(() => comparisonAnswer("A"));
    const bare = (run: RunSnapshot): RunSnapshot => {
      const { metadata: _, ...rest } = run;
      return rest;
    };
    const result = await compareRuns({ judge, runA: bare(withSkill), runB: bare(withoutSkill) });
    expect(result.comparison.expectation_results).toBeUndefined();
    expect(judge.requests[0]?.prompt).not.toContain("<expectations>");
  });
});
