import { describe, expect, it } from "vitest";
import { runsSettledAway, settleSchedule } from "../../src/triggers/settle.js";

interface Spec {
  queryIndex: number;
  runNumber: number;
}
interface Record {
  queryIndex: number;
  triggered: boolean;
  stolenBy: string[];
  outcome: string;
}

describe("a run taken just before its query settled", () => {
  it("is dropped when it would start, once, and told as dropped", async () => {
    const specs: Spec[] = [1, 2, 3].map((runNumber) => ({ queryIndex: 0, runNumber }));
    const dropped: Spec[] = [];
    const schedule = settleSchedule<Spec, Record>({
      specs,
      rules: [{ shouldTrigger: true, threshold: 0.3, maxRuns: 3 }],
      kept: new Set(),
      finishedEarlier: async () => undefined,
      onDropped: (spec) => dropped.push(spec),
    });
    const [first, second, third] = specs as [Spec, Spec, Spec];
    // The first run is made; the second is taken (its store lookup is out) before the first ends; the third is not.
    expect(await schedule.finishedEarlier(first)).toBeUndefined();
    expect(await schedule.finishedEarlier(second)).toBeUndefined();
    expect(schedule.skip(second)).toBe(false);
    // A cancelled run tells nothing; the first run's trigger settles the query (at least 1 of 3 passes 0.3).
    schedule.ended({ queryIndex: 0, triggered: false, stolenBy: [], outcome: "cancelled" });
    expect(dropped).toEqual([]);
    schedule.ended({ queryIndex: 0, triggered: true, stolenBy: [], outcome: "success" });
    // The third, not taken, is dropped at once; the second when it would start.
    expect(dropped).toEqual([third]);
    expect(schedule.skip(second)).toBe(true);
    expect(dropped).toEqual([third, second]);
    expect(schedule.skip(second)).toBe(true);
    expect(schedule.skip(third)).toBe(true);
    expect(dropped).toEqual([third, second]);
    // A dropped run is never served.
    expect(await schedule.finishedEarlier(third)).toBeUndefined();
  });
});

describe("the runs a trigger eval saved by settling", () => {
  it("counts each query's runs short of --runs, only when queries were settled", () => {
    const results = [{ runs: 3 }, { runs: 1 }, { runs: 2 }];
    expect(runsSettledAway({ all_runs: false, runs_per_query: 3, results })).toBe(3);
    expect(runsSettledAway({ all_runs: true, runs_per_query: 3, results })).toBe(0);
    // Written before settling existed: every run was made.
    expect(runsSettledAway({ runs_per_query: 3, results })).toBe(0);
    expect(runsSettledAway({ all_runs: false, results })).toBe(0);
    // A query with more runs than asked (merged shards) saves nothing and takes nothing away.
    expect(runsSettledAway({ all_runs: false, runs_per_query: 2, results })).toBe(1);
  });
});
