import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { runTriggers, type TriggerOptions, type TriggerRunSpec } from "../../src/triggers/index.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry } from "../e2e/helpers.js";
import { haikuTriggerOptions, writeHaikuSkill } from "./haiku-triggers.js";

// How a query's verdict settles as its runs end, with runTriggers in this process and the claude-code adapter on the
// test double: the one query always loads the skill under test.
const script = SimScript.parse({
  rules: [{ match: "haiku", skill: "~haiku-sg-", steps: [{ text: "A haiku." }] }],
});

const fx = useSimDouble(script, (dir) =>
  writeHaikuSkill(dir, [{ query: "write a haiku about rain", should_trigger: true }]),
);

const options = (workspace: string, overrides: Partial<TriggerOptions> = {}): TriggerOptions =>
  haikuTriggerOptions(fx.dir, workspace, {
    runs: 2,
    retry: { ...fastRetry, attempts: 1 },
    createAgent: () => fx.agent(),
    ...overrides,
  });

const name = (s: Pick<TriggerRunSpec, "runNumber">) => `r${s.runNumber}`;

describe("a query's verdict", () => {
  it("is not settled by a run that was cancelled: no later run is dropped for it", async () => {
    // After one triggering run of three the verdict is open; a cancelled second run must not count as an error that
    // settles it.
    const stop = new AbortController();
    const seen: string[] = [];
    const summary = await runTriggers(
      options("ws-cancel", {
        runs: 3,
        signal: stop.signal,
        reporter: {
          onRunStart: (spec) => {
            if (spec.runNumber === 2) stop.abort();
          },
          onRunDropped: (spec) => seen.push(`dropped ${name(spec)}`),
          onRunEnd: (record) => seen.push(`end ${name(record.spec)} ${record.outcome}`),
        },
      }),
    );
    expect(summary.cancelled).toBe(true);
    expect(seen).toEqual(["end r1 stopped", "end r2 cancelled"]);
  }, 60_000);

  it("settled, leaves its later runs unserved even when the store holds them", async () => {
    const store = { store: { dir: join(fx.dir, "store") } };
    // Every run made and stored: the second too.
    const all = await runTriggers(options("ws-all", { ...store, allRuns: true }));
    expect(all.records.map((r) => name(r.spec)).sort()).toEqual(["r1", "r2"]);
    // The first stored run settles the query: the second is dropped, not copied in.
    const dropped: string[] = [];
    const settled = await runTriggers(
      options("ws-settled", { ...store, reporter: { onRunDropped: (spec) => dropped.push(name(spec)) } }),
    );
    expect(settled.records.map((r) => [name(r.spec), r.reusedFrom?.iteration])).toEqual([
      ["r1", "iteration-1"],
    ]);
    expect(dropped).toEqual(["r2"]);
    expect(settled.results.results.map((r) => [r.runs, r.triggers])).toEqual([[1, 1]]);
  }, 60_000);
});
