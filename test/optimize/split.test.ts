import { describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { splitQueries } from "../../src/optimize/index.js";

const queries = (positives: number, negatives: number) => [
  ...Array.from({ length: positives }, (_, i) => ({ query: `yes ${i}`, should_trigger: true })),
  ...Array.from({ length: negatives }, (_, i) => ({ query: `no ${i}`, should_trigger: false })),
];

describe("splitQueries", () => {
  it("holds out 40% of each class, stratified by should_trigger", () => {
    const qs = queries(10, 5);
    const split = splitQueries(qs, { holdout: 0.4, seed: 42 });
    const positivesInTest = split.test.filter((i) => qs[i]!.should_trigger).length;
    expect(positivesInTest).toBe(4);
    expect(split.test.length - positivesInTest).toBe(2);
    expect(split.train).toHaveLength(9);
    expect([...split.train, ...split.test].sort((a, b) => a - b)).toEqual(qs.map((_, i) => i));
    expect(split.train).toEqual([...split.train].sort((a, b) => a - b));
  });

  it("gives the same split for the same seed and another for another seed", () => {
    const qs = queries(12, 12);
    const a = splitQueries(qs, { holdout: 0.4, seed: 7 });
    expect(splitQueries(qs, { holdout: 0.4, seed: 7 })).toEqual(a);
    const others = [1, 2, 3, 4].map((seed) => splitQueries(qs, { holdout: 0.4, seed }).test.join());
    expect(others.some((t) => t !== a.test.join())).toBe(true);
  });

  it("keeps at least one query of each class on each side when the class has two", () => {
    for (const holdout of [0.05, 0.95]) {
      const qs = queries(2, 3);
      const split = splitQueries(qs, { holdout, seed: 1 });
      for (const side of [split.train, split.test]) {
        expect(side.some((i) => qs[i]!.should_trigger)).toBe(true);
        expect(side.some((i) => !qs[i]!.should_trigger)).toBe(true);
      }
    }
  });

  it("puts a lone query of a class in train and refuses a suite with nothing to hold out", () => {
    const qs = queries(1, 3);
    const split = splitQueries(qs, { holdout: 0.4, seed: 3 });
    expect(split.train).toContain(0);
    expect(() => splitQueries(queries(1, 1), { holdout: 0.4, seed: 3 })).toThrow(/too few queries/);
  });

  it("refuses a holdout of 0 or 1 as a usage error", () => {
    for (const holdout of [0, 1]) {
      const error = (() => {
        try {
          splitQueries(queries(3, 3), { holdout, seed: 1 });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(SkillgymError);
      expect((error as SkillgymError).code).toBe("USAGE");
    }
  });

  it("gives, for a seed, the same split in every version: a resumed optimization checks the split it stored", () => {
    const mixed = [true, false, true, true, false, false, true, false, true, false].map(
      (should_trigger, i) => ({
        query: `q${i}`,
        should_trigger,
      }),
    );
    expect(splitQueries(mixed, { holdout: 0.4, seed: 42 })).toEqual({
      train: [1, 2, 3, 5, 6, 9],
      test: [0, 4, 7, 8],
    });
    expect(splitQueries(mixed, { holdout: 0.4, seed: 2 })).toEqual({
      train: [0, 2, 4, 5, 6, 9],
      test: [1, 3, 7, 8],
    });
    expect(splitQueries(queries(5, 5), { holdout: 0.4, seed: 1 })).toEqual({
      train: [0, 1, 3, 6, 8, 9],
      test: [2, 4, 5, 7],
    });
  });

  it("says how many queries of each class there are when nothing can be held out", () => {
    for (const [positives, negatives] of [
      [1, 0],
      [0, 1],
    ] as const) {
      const error = (() => {
        try {
          splitQueries(queries(positives, negatives), { holdout: 0.4, seed: 3 });
        } catch (e) {
          return e;
        }
      })() as SkillgymError;
      expect(error.code).toBe("BAD_INPUT");
      expect(error.message).toBe(
        `triggers.json has too few queries to hold out a test set (${positives} should trigger, ${negatives} should not)`,
      );
      expect(error.hint).toBe(
        "add queries so that at least one class (should_trigger true or false) has two or more",
      );
    }
  });

  it("says what a holdout must be, and how to give one", () => {
    expect(() => splitQueries(queries(3, 3), { holdout: 1.5, seed: 1 })).toThrow(
      expect.objectContaining({
        message: "--holdout must be above 0 and below 1 (got 1.5)",
        hint: "hold out a share of the queries for test, e.g. --holdout 0.4",
      }),
    );
  });
});
