import { describe, expect, it } from "vitest";
import { agreementOf, cohenKappa, type RatedPair } from "../../src/judges/kappa.js";

// A 2×2 table as pairs: both pass, first only, second only, both fail.
function table(bothPass: number, firstOnly: number, secondOnly: number, bothFail: number): RatedPair[] {
  const repeat = (n: number, pair: RatedPair) => Array.from({ length: n }, () => pair);
  return [
    ...repeat(bothPass, [true, true]),
    ...repeat(firstOnly, [true, false]),
    ...repeat(secondOnly, [false, true]),
    ...repeat(bothFail, [false, false]),
  ];
}

describe("cohenKappa", () => {
  it("is 0.4 for observed agreement 0.7 against chance agreement 0.5", () => {
    // Each rater passes half; they agree on 14 of 20.
    const point = cohenKappa(table(7, 3, 3, 7));
    expect(point.percentAgreement).toBeCloseTo(0.7, 10);
    expect(point.kappa).toBeCloseTo(0.4, 10);
  });

  it("matches a textbook table with unequal marginals", () => {
    // 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: po = 0.7, pe = 0.5·0.6 + 0.5·0.4 = 0.5, κ = 0.4.
    expect(cohenKappa(table(20, 5, 10, 15)).kappa).toBeCloseTo(0.4, 10);
    // 45, 15, 25, 15 (n = 100): po = 0.6, pe = 0.6·0.7 + 0.4·0.3 = 0.54, κ = 0.06 / 0.46.
    expect(cohenKappa(table(45, 15, 25, 15)).kappa).toBeCloseTo(0.06 / 0.46, 10);
  });

  it("is 1 for perfect agreement, −1 for perfect disagreement with balanced marginals", () => {
    expect(cohenKappa(table(3, 0, 0, 2)).kappa).toBe(1);
    expect(cohenKappa(table(0, 5, 5, 0)).kappa).toBe(-1);
  });

  it("is undefined (null) when both raters give one same verdict throughout, and 0 when only one does", () => {
    expect(cohenKappa(table(6, 0, 0, 0))).toEqual({ n: 6, percentAgreement: 1, kappa: null });
    expect(cohenKappa(table(4, 2, 0, 0)).kappa).toBeCloseTo(0, 10);
    expect(cohenKappa([])).toEqual({ n: 0, percentAgreement: null, kappa: null });
  });
});

describe("agreementOf", () => {
  const options = { seed: 1, resamples: 2000, confidence: 0.95 };

  it("gives a bootstrap interval around κ, the same for the same seed", () => {
    const pairs = table(20, 5, 10, 15);
    const agreement = agreementOf(pairs, options);
    expect(agreement.kappa).toBeCloseTo(0.4, 4);
    const ci = agreement.kappa_ci;
    expect(ci).not.toBeNull();
    expect(ci?.low).toBeLessThanOrEqual(0.4);
    expect(ci?.high).toBeGreaterThanOrEqual(0.4);
    expect(ci?.low).toBeLessThan(ci?.high ?? 0);
    expect(agreementOf(pairs, options)).toEqual(agreement);
    expect(agreementOf(pairs, { ...options, seed: 2 }).kappa_ci).not.toEqual(ci);
  });

  it("draws no interval from one item or an undefined κ", () => {
    expect(agreementOf([[true, false]], options).kappa_ci).toBeNull();
    expect(agreementOf(table(5, 0, 0, 0), options)).toMatchObject({
      percent_agreement: 1,
      kappa: null,
      kappa_ci: null,
    });
  });
});

describe("agreementOf's bootstrap, resample by resample", () => {
  it("draws exactly as many resamples as asked: one resample gives an interval of one κ", () => {
    // Seed 1's first two resamples of this table have different κs, so a second draw would widen the interval.
    const one = agreementOf(table(3, 1, 1, 3), { seed: 1, resamples: 1, confidence: 0.95 });
    expect(one.kappa_ci).not.toBeNull();
    expect(one.kappa_ci!.low).toBe(one.kappa_ci!.high);
    const two = agreementOf(table(3, 1, 1, 3), { seed: 1, resamples: 2, confidence: 0.95 });
    expect(two.kappa_ci!.low).toBeLessThan(two.kappa_ci!.high);
  });

  it("gives no interval when no resample has a κ, though the point κ is defined", () => {
    // Two items: seed 5's only resample draws the same item twice, whose κ is undefined (both raters alike).
    const agreement = agreementOf(table(1, 0, 0, 1), { seed: 5, resamples: 1, confidence: 0.95 });
    expect(agreement.kappa).toBe(1);
    expect(agreement.kappa_ci).toBeNull();
  });

  it("never gives κ as −0: a chance-level table whose arithmetic lands a hair below zero reads 0", () => {
    // po = 2/3 and pe = 2/3: κ is 0, computed as −3.3e−16, which rounds to −0.
    expect(Object.is(agreementOf(table(0, 0, 1, 2)).kappa, 0)).toBe(true);
  });
});
