import { describe, expect, it } from "vitest";
import { humanAgreement, judgePairs, selfConsistency } from "../../src/judges/agreement.js";
import { ambiguousExpectations } from "../../src/judges/ambiguous.js";
import { humanTruth } from "../../src/judges/human-truth.js";
import { agreementOf } from "../../src/judges/kappa.js";
import { addVerdict, type GradedItem, itemKey, type VerdictTable } from "../../src/judges/verdicts.js";

const options = { seed: 1, resamples: 500, confidence: 0.95 };
const pass = (evidence = "seen") => ({ passed: true, evidence });
const fail = (evidence = "not seen") => ({ passed: false, evidence });

function itemsOf(...list: [string, number, string][]): Map<string, GradedItem> {
  return new Map(list.map(([runId, evalId, text]) => [itemKey(runId, text), { runId, evalId, text }]));
}

describe("the κ interval", () => {
  it("leaves out resamples whose κ is undefined instead of counting them as 0", () => {
    // Any resample that holds both verdicts agrees perfectly: κ 1; one that holds one verdict has no κ.
    const agreement = agreementOf(
      [
        [true, true],
        [false, false],
        [true, true],
      ],
      options,
    );
    expect(agreement).toEqual({
      n: 3,
      percent_agreement: 1,
      kappa: 1,
      kappa_ci: { low: 1, high: 1, confidence: 0.95 },
    });
  });

  it("draws no interval from one item, though its κ is known", () => {
    expect(agreementOf([[true, false]], options)).toEqual({
      n: 1,
      percent_agreement: 0,
      kappa: 0,
      kappa_ci: null,
    });
  });

  it("draws no interval when no resample has a κ", () => {
    // With this seed the one resample draws the same item twice: every verdict alike, no κ.
    expect(
      agreementOf(
        [
          [true, true],
          [false, false],
        ],
        { resamples: 1, seed: 5, confidence: 0.95 },
      ),
    ).toEqual({ n: 2, percent_agreement: 1, kappa: 1, kappa_ci: null });
  });

  it("takes exactly the resamples asked for", () => {
    const pairs: [boolean, boolean][] = [
      [true, true],
      [false, false],
      [true, false],
      [true, true],
      [false, true],
    ];
    // Fixed values for seed 2: a third resample would bring the low bound down to -0.1538.
    expect(agreementOf(pairs, { resamples: 2, seed: 2, confidence: 0.9 }).kappa_ci).toEqual({
      low: 0.1667,
      high: 0.5455,
      confidence: 0.9,
    });
  });

  it("is drawn from two items already", () => {
    expect(
      agreementOf(
        [
          [true, true],
          [false, false],
        ],
        options,
      ).kappa_ci,
    ).toEqual({ low: 1, high: 1, confidence: 0.95 });
  });

  it("resamples every item, the last one included", () => {
    // Only the last item disagrees: a bootstrap that never draws it would give κ 1 at both ends.
    const pairs: [boolean, boolean][] = [
      ...Array.from({ length: 5 }, () => [true, true] as [boolean, boolean]),
      ...Array.from({ length: 5 }, () => [false, false] as [boolean, boolean]),
      [true, false],
    ];
    const agreement = agreementOf(pairs, options);
    expect(agreement.kappa).toBeLessThan(1);
    expect(agreement.kappa_ci?.low).toBeLessThan(1);
    expect(agreement.kappa_ci?.high).toBe(1);
  });

  it("rounds to four places", () => {
    // po = 2/3 (rounded), pe = 4/9: κ = 0.4.
    const agreement = agreementOf(
      [
        [true, true],
        [true, false],
        [false, false],
      ],
      { ...options, resamples: 0 },
    );
    expect(agreement.percent_agreement).toBe(0.6667);
    expect(agreement.kappa).toBe(0.4);
  });
});

describe("judge pairs", () => {
  it("compares every pair once, in the order named, on the items both judged, by their first verdict", () => {
    const items = itemsOf(["r1", 1, "a"], ["r1", 1, "b"], ["r2", 2, "a"], ["r2", 2, "c"]);
    const table: VerdictTable = new Map();
    addVerdict(table, "x", itemKey("r1", "a"), pass());
    addVerdict(table, "x", itemKey("r1", "a"), fail());
    addVerdict(table, "x", itemKey("r1", "b"), pass("x saw b"));
    addVerdict(table, "x", itemKey("r2", "a"), fail());
    addVerdict(table, "y", itemKey("r1", "a"), pass());
    addVerdict(table, "y", itemKey("r1", "b"), fail("y missed b"));
    addVerdict(table, "y", itemKey("r2", "a"), fail());
    addVerdict(table, "y", itemKey("r2", "c"), pass());
    addVerdict(table, "z", itemKey("r2", "c"), pass());
    const pairs = judgePairs(["x", "y", "z"], items, table, options);
    expect(pairs.map((p) => [p.a, p.b, p.n])).toEqual([
      ["x", "y", 3],
      ["x", "z", 0],
      ["y", "z", 1],
    ]);
    expect(pairs[0]?.percent_agreement).toBe(0.6667);
    expect(pairs[0]?.disagreements).toEqual([
      {
        run_id: "r1",
        eval_id: 1,
        text: "b",
        a: { passed: true, evidence: "x saw b" },
        b: { passed: false, evidence: "y missed b" },
      },
    ]);
    expect(pairs[1]).toMatchObject({ n: 0, percent_agreement: null, kappa: null, disagreements: [] });
  });

  it("counts as flips only items graded more than once whose verdicts differ", () => {
    const items = itemsOf(["r1", 1, "a"], ["r1", 1, "b"], ["r2", 2, "a"]);
    const table: VerdictTable = new Map();
    for (const verdict of [pass(), pass(), fail()]) addVerdict(table, "x", itemKey("r1", "a"), verdict);
    for (const verdict of [fail(), fail()]) addVerdict(table, "x", itemKey("r1", "b"), verdict);
    addVerdict(table, "x", itemKey("r2", "a"), fail());
    const [x, none] = selfConsistency(["x", "unknown"], items, table);
    expect(x).toEqual({
      judge: "x",
      n: 2,
      flips: 1,
      flip_rate: 0.5,
      flipped: [{ run_id: "r1", eval_id: 1, text: "a" }],
    });
    expect(none).toEqual({ judge: "unknown", n: 0, flips: 0, flip_rate: null, flipped: [] });
  });
});

describe("ambiguous expectations", () => {
  it("gathers per eval and text a reason for each pair that disagrees and each judge that flips", () => {
    const disagreement = (run: string, evalId: number, text: string) => ({
      run_id: run,
      eval_id: evalId,
      text,
      a: pass(),
      b: fail(),
    });
    const pair = {
      a: "x",
      b: "y",
      n: 3,
      percent_agreement: 0,
      kappa: null,
      kappa_ci: null,
      disagreements: [disagreement("r1", 1, "a"), disagreement("r2", 1, "a"), disagreement("r3", 2, "a")],
    };
    const consistency = [
      { judge: "x", n: 1, flips: 1, flip_rate: 1, flipped: [{ run_id: "r1", eval_id: 1, text: "a" }] },
    ];
    expect(ambiguousExpectations([pair], consistency)).toEqual([
      {
        eval_id: 1,
        text: "a",
        reasons: ["x and y disagree on 2 runs", "x changes its verdict on 1 run when asked again"],
      },
      { eval_id: 2, text: "a", reasons: ["x and y disagree on 1 run"] },
    ]);
  });
});

describe("the reviewers' truth", () => {
  it("keeps a grade marked right, flips one marked wrong, takes the last mark, ignores marks on unknown grades", () => {
    const gradings = new Map([
      [
        "r1",
        [
          { text: "a", passed: true, evidence: "" },
          { text: "b", passed: false, evidence: "" },
        ],
      ],
    ]);
    const review = (run_id: string, grades: { text: string; verdict: "right" | "wrong" }[]) => ({
      run_id,
      feedback: "",
      timestamp: "2026-01-01T00:00:00Z",
      grades,
    });
    const truth = humanTruth(
      {
        reviews: [
          review("r1", [
            { text: "a", verdict: "wrong" },
            { text: "b", verdict: "wrong" },
            { text: "a", verdict: "right" },
            { text: "c", verdict: "right" },
          ]),
          review("r9", [{ text: "a", verdict: "right" }]),
        ],
        status: "complete",
      },
      gradings,
    );
    expect([...truth]).toEqual([
      [itemKey("r1", "a"), { passed: true, evidence: "a reviewer marked the grade (PASS) right" }],
      [itemKey("r1", "b"), { passed: true, evidence: "a reviewer marked the grade (FAIL) wrong" }],
    ]);
    expect(humanTruth(undefined, gradings).size).toBe(0);
  });
});

describe("the judges against the reviewers", () => {
  it("are not measured at all when no reviewer marked a grade", () => {
    const items = new Map<string, GradedItem>([[itemKey("r1", "t"), { runId: "r1", evalId: 1, text: "t" }]]);
    const table: VerdictTable = new Map();
    addVerdict(table, "a", itemKey("r1", "t"), { passed: true, evidence: "" });
    expect(humanAgreement(["a"], items, table, new Map())).toEqual([]);
  });
});
