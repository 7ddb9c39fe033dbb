import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultBootstrap } from "../../src/bench/statistics.js";
import type { DiffReport } from "../../src/contracts/diff.js";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { diffIterations } from "../../src/diff/diff-iterations.js";
import { readSides } from "../../src/diff/read-side.js";
import { renderDiffMarkdown } from "../../src/diff/render-markdown.js";
import { twoSampleBootstrap } from "../../src/diff/two-sample.js";
import { writeDiff } from "../../src/diff/write-diff.js";
import { SkillgymError } from "../../src/errors.js";
import { type FixtureRun, iterationRecord, writeIteration } from "../bench/iteration-fixture.js";

// Assertion results giving a run of pass rate 1, 0.5 or 0.
const rated = { 1: { a: true, b: true }, 0.5: { a: true, b: false }, 0: { a: false, b: false } } as const;
function withSkill(evalId: number, rates: (1 | 0.5 | 0)[]): FixtureRun[] {
  return rates.map((rate, i) => ({
    eval: evalId,
    configuration: "with_skill",
    run: i + 1,
    results: rated[rate],
  }));
}

function triggers(results: { query: string; should: boolean; rate: number | null; pass: boolean | null }[]) {
  const passed = results.filter((r) => r.pass === true).length;
  const errors = results.filter((r) => r.pass === null).length;
  return {
    skill_name: "demo",
    description: "Summarises CSV files.",
    results: results.map((r) => ({
      query: r.query,
      should_trigger: r.should,
      trigger_rate: r.rate,
      triggers: r.rate === null ? 0 : Math.round(r.rate * 3),
      runs: 3,
      errors: r.rate === null ? 3 : 0,
      pass: r.pass,
    })),
    summary: { total: results.length, passed, failed: results.length - passed - errors, errors },
  } satisfies Omit<TriggerResults, "summary"> & { summary: Record<string, number> };
}

async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

function agentsRecord(agents: string[]) {
  return {
    skill_name: "demo",
    skill_path: "/skills/demo",
    skill_hash: "h",
    status: "complete",
    started_at: "2026-01-01T00:00:00Z",
    agents,
    request: {
      evals: [1],
      runs_per_configuration: 2,
      baseline: "without_skill",
      trigger_queries: 0,
      trigger_runs: 1,
    },
  };
}

let root: string;
let a: string;
let b: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "skillgym-diff-"));
  a = join(root, "ws", "iteration-1");
  b = join(root, "ws", "iteration-2");
  const plan = (evals: number[]) => ({
    evals,
    configurations: ["with_skill", "without_skill"],
    runs_per_configuration: 3,
  });
  await writeIteration(a, {
    record: iterationRecord({ plan: plan([1, 2, 3]) }),
    evals: [{ id: 1, name: "csv summary" }, { id: 2 }, { id: 3 }],
    runs: [
      ...withSkill(1, [1, 1, 0.5]),
      // The baseline's runs and an ungraded run are not compared.
      { eval: 1, configuration: "without_skill", run: 1, results: rated[0] },
      ...withSkill(2, [0.5, 0.5]),
      { eval: 2, configuration: "with_skill", run: 3, grading: null },
      ...withSkill(3, [1]),
    ],
  });
  await writeIteration(b, {
    record: iterationRecord({ plan: plan([1, 2, 4]) }),
    evals: [{ id: 1, name: "csv summary v2" }, { id: 2 }, { id: 4 }],
    runs: [...withSkill(1, [0, 0.5, 0]), ...withSkill(2, [0.5]), ...withSkill(4, [1, 1])],
  });
  await writeJsonFile(
    join(a, "triggers", "trigger-results.json"),
    triggers([
      { query: "summarise sales.csv", should: true, rate: 1, pass: true },
      { query: "what is the weather", should: false, rate: 0, pass: true },
      { query: "old query", should: true, rate: 1, pass: true },
    ]),
  );
  await writeJsonFile(
    join(b, "triggers", "trigger-results.json"),
    triggers([
      { query: "new query", should: true, rate: 1, pass: true },
      { query: "what is the weather", should: false, rate: null, pass: null },
      { query: "summarise sales.csv", should: true, rate: 0.3333, pass: false },
    ]),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

const options = { seed: 7, resamples: 400 };
const bootstrap = { ...defaultBootstrap, ...options };

describe("diffIterations", () => {
  it("compares two iterations' with_skill pass rates by eval and their trigger queries by text", async () => {
    const report = await diffIterations(a, b, options);
    const eval1 = twoSampleBootstrap([{ a: [1, 1, 0.5], b: [0, 0.5, 0] }], bootstrap);
    expect(eval1).toMatchObject({ estimate: -0.6667, confidence: 0.95 });
    expect(report).toEqual({
      a,
      b,
      effect_floor: 0.05,
      method:
        "bootstrap of mean(B) − mean(A) of the with_skill pass rate: evals resampled, then each iteration's runs within an eval apart; percentile interval",
      parts: [
        {
          evals: [
            {
              eval_id: 1,
              eval_name: "csv summary v2",
              a_pass_rate: 0.8333,
              b_pass_rate: 0.1667,
              a_runs: 3,
              b_runs: 3,
              difference: eval1,
              change: "regressed",
            },
            {
              eval_id: 2,
              eval_name: "eval-2",
              a_pass_rate: 0.5,
              b_pass_rate: 0.5,
              a_runs: 2,
              b_runs: 1,
              difference: null,
              change: "inconclusive",
              note: "fewer than 2 graded with_skill runs on a side: no interval",
            },
          ],
          only_in_a: [3],
          only_in_b: [4],
          // Only eval 1 has two runs a side.
          overall: { difference: eval1, change: "regressed" },
          queries: [
            {
              query: "summarise sales.csv",
              should_trigger: true,
              a_rate: 1,
              b_rate: 0.3333,
              a_pass: true,
              b_pass: false,
              change: "regressed",
            },
            {
              query: "what is the weather",
              should_trigger: false,
              a_rate: 0,
              b_rate: null,
              a_pass: true,
              b_pass: null,
              change: "inconclusive",
            },
          ],
          queries_only_in_a: ["old query"],
          queries_only_in_b: ["new query"],
        },
      ],
      regressions: 2,
    } satisfies DiffReport);
  });

  it("uses the default floor, seed and resamples unless told otherwise", async () => {
    const report = await diffIterations(a, b);
    expect(report.effect_floor).toBe(0.05);
    expect(report.parts[0]?.evals[0]?.difference).toEqual(
      twoSampleBootstrap([{ a: [1, 1, 0.5], b: [0, 0.5, 0] }], defaultBootstrap),
    );
    // With 20 resamples the interval's edges move with the seed: both options reach the bootstrap.
    const ciHigh = async (o: { seed?: number; resamples?: number }) =>
      (await diffIterations(a, b, o)).parts[0]?.evals[0]?.difference?.ci_high;
    expect(await ciHigh({ resamples: 20 })).toBe(-0.5);
    expect(await ciHigh({ seed: 7, resamples: 20 })).toBe(-0.3333);
    expect(await ciHigh({ seed: 1 })).toBe(-0.3333);
    // Left unset, the seed is the default's (1), not a seed of 0: at 30 resamples those two part.
    expect(await ciHigh({ resamples: 30 })).toBe(-0.3333);
    expect(await ciHigh({ seed: 0, resamples: 30 })).toBe(-0.5);
  });

  it("holds each move against the floor it is given", async () => {
    const report = await diffIterations(a, b, { ...options, effectFloor: 1 });
    expect(report.effect_floor).toBe(1);
    // -1 to -0.33 lies within ±1: no move worth reporting at that floor, and so no regression but the query's.
    expect(report.parts[0]?.evals[0]?.change).toBe("unchanged");
    expect(report.parts[0]?.overall?.change).toBe("unchanged");
    expect(report.regressions).toBe(1);
    expect(renderDiffMarkdown(report)).toContain("at a floor of ±1.00.");
  });

  it("compares an iteration with itself: no regression, and noisy evals undecided", async () => {
    const report = await diffIterations(a, a, options);
    expect(report.regressions).toBe(0);
    expect(report.parts[0]?.evals.map((e) => [e.eval_id, e.change])).toEqual([
      [1, "inconclusive"],
      [2, "unchanged"],
      [3, "inconclusive"],
    ]);
    expect(report.parts[0]?.queries.map((q) => q.change)).toEqual(["unchanged", "unchanged", "unchanged"]);
    // Eval 1's runs differ (1, 1, 0.5): resampled apart, they move either way; eval 2's do not.
    // No number of runs is likely to decide an estimate of 0 against a floor of ±0.05 so wide: none is named.
    expect(report.parts[0]?.evals[0]).toEqual({
      eval_id: 1,
      eval_name: "csv summary",
      a_pass_rate: 0.8333,
      b_pass_rate: 0.8333,
      a_runs: 3,
      b_runs: 3,
      difference: { estimate: 0, ci_low: -0.3333, ci_high: 0.3333, confidence: 0.95 },
      change: "inconclusive",
    });
    expect(report.parts[0]?.evals[1]?.difference).toEqual({
      estimate: 0,
      ci_low: 0,
      ci_high: 0,
      confidence: 0.95,
    });
  });
});

describe("readSides", () => {
  it("reads an iteration of trigger runs only, which has no eval folders", async () => {
    const only = join(root, "triggers-only");
    await writeJsonFile(
      join(only, "triggers", "trigger-results.json"),
      triggers([{ query: "summarise sales.csv", should: true, rate: 1, pass: true }]),
    );
    const [pair] = await readSides(only, b);
    expect(pair?.a).toEqual({
      dir: only,
      evals: [],
      triggers: expect.objectContaining({ skill_name: "demo" }),
    });
    expect(pair?.agent).toBeUndefined();
    expect(pair?.b.evals.map((e) => [e.id, e.name, e.rates])).toEqual([
      [1, "csv summary v2", [0, 0.5, 0]],
      [2, "eval-2", [0.5]],
      [4, "eval-4", [1, 1]],
    ]);
  });

  it("refuses a folder that is no iteration and has no trigger results", async () => {
    const nothing = join(root, "nothing");
    await mkdir(nothing, { recursive: true });
    const error = await readSides(nothing, b).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).code).toBe("BAD_INPUT");
    expect((error as SkillgymError).message).toContain(`${nothing} is not an iteration folder`);
  });

  it("pairs the agents both iterations of several agents ran, in A's order", async () => {
    const several = (name: string) => join(root, name);
    await writeJsonFile(
      join(several("multi-a"), "iteration.json"),
      agentsRecord(["gemini", "claude-code", "codex"]),
    );
    await writeJsonFile(join(several("multi-b"), "iteration.json"), agentsRecord(["codex", "gemini"]));
    for (const [side, agent, rates] of [
      ["multi-a", "gemini", [1, 1]],
      ["multi-a", "codex", [1, 1]],
      ["multi-b", "gemini", [1, 1]],
      ["multi-b", "codex", [0, 0]],
    ] as const)
      await writeIteration(join(several(side), agent), {
        record: iterationRecord({
          plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 2 },
        }),
        evals: [{ id: 1 }],
        runs: withSkill(1, [...rates]),
      });
    const pairs = await readSides(several("multi-a"), several("multi-b"));
    expect(pairs.map((p) => [p.agent, p.a.dir, p.b.dir, p.a.evals[0]?.rates, p.b.evals[0]?.rates])).toEqual([
      ["gemini", join(several("multi-a"), "gemini"), join(several("multi-b"), "gemini"), [1, 1], [1, 1]],
      ["codex", join(several("multi-a"), "codex"), join(several("multi-b"), "codex"), [1, 1], [0, 0]],
    ]);
    const report = await diffIterations(several("multi-a"), several("multi-b"), options);
    expect(report.parts.map((p) => [p.agent, p.overall?.change])).toEqual([
      ["gemini", "unchanged"],
      ["codex", "regressed"],
    ]);
    expect(report.regressions).toBe(1);
    expect(renderDiffMarkdown(report)).toContain("## Agent: codex");
  });

  it("refuses to compare an iteration of several agents with one of one, naming an agent's folder", async () => {
    const multi = join(root, "multi-only");
    await writeJsonFile(join(multi, "iteration.json"), agentsRecord(["claude-code", "codex"]));
    for (const [x, y] of [
      [multi, a],
      [a, multi],
    ] as const) {
      const error = (await readSides(x, y).catch((e: unknown) => e)) as SkillgymError;
      expect(error).toBeInstanceOf(SkillgymError);
      expect(error.code).toBe("USAGE");
      expect(error.message).toBe(`${multi} ran several agents and the other iteration one`);
      expect(error.hint).toBe(
        `compare one agent's folder with the other iteration, e.g. ${join(multi, "claude-code")}`,
      );
      expect(error.file).toBe(multi);
    }
  });

  it("refuses iterations of several agents with no agent in common", async () => {
    const left = join(root, "left");
    const right = join(root, "right");
    await writeJsonFile(join(left, "iteration.json"), agentsRecord(["claude-code", "codex"]));
    await writeJsonFile(join(right, "iteration.json"), agentsRecord(["gemini", "opencode"]));
    const error = (await readSides(left, right).catch((e: unknown) => e)) as SkillgymError;
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error.code).toBe("USAGE");
    expect(error.message).toBe(`${left} and ${right} ran no agent in common`);
    expect(error.hint).toBe(`${left} ran claude-code, codex; ${right} ran gemini, opencode`);
    expect(error.file).toBe(right);
  });
});

describe("writeDiff", () => {
  it("writes diff.json and diff.md into iteration B's folder by default", async () => {
    const report = await diffIterations(a, b, options);
    const written = await writeDiff(report);
    expect(written).toEqual({
      jsonPath: join(b, "diff.json"),
      mdPath: join(b, "diff.md"),
      markdown: renderDiffMarkdown(report),
    });
    expect(JSON.parse(await readFile(join(b, "diff.json"), "utf8"))).toEqual(report);
    expect(await readFile(join(b, "diff.md"), "utf8")).toBe(renderDiffMarkdown(report));
    await rm(join(b, "diff.json"));
    await rm(join(b, "diff.md"));
  });

  it("does not make iteration B's folder when it is gone", async () => {
    const report = await diffIterations(a, b, options);
    await expect(writeDiff({ ...report, b: join(root, "gone") })).rejects.toThrow();
  });

  it("writes into the folder given instead, making it when it is missing", async () => {
    const report = await diffIterations(a, b, options);
    const out = join(root, "out", "diffs");
    const written = await writeDiff(report, out);
    expect([written.jsonPath, written.mdPath]).toEqual([join(out, "diff.json"), join(out, "diff.md")]);
    expect(await readFile(join(out, "diff.md"), "utf8")).toContain("- Regressions: 2");
    expect(JSON.parse(await readFile(join(out, "diff.json"), "utf8")).regressions).toBe(2);
  });
});
