import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { IterationRecord, TriggerPlan } from "../../src/contracts/run-record.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { skillgymOnDouble } from "../agent-double/index.js";
import { elements, parseXml } from "../ci/xml-tree.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { readJson, tempDir } from "./helpers.js";
import { smallExample } from "./small-example.js";

// Real Claude Code against the sim, in separate processes: one unsharded run, two shards, then merge.
// csv-summary with 6 of its trigger queries, 2 runs each.
const common = ["--simulate", "--runs", "1", "--trigger-runs", "2", "--all-runs", "--concurrency", "3"];
let dir: string;
let cleanup: () => Promise<void>;
let wholeOut: string;
let shardOut: string;
let skill: string;

async function runOf(args: string[]) {
  const result = await skillgymHereOnDouble(["run", skill, ...common, ...args]);
  if (result.code !== 0)
    throw new Error(`skillgym ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result;
}

function byRun(b: Benchmark) {
  return b.runs
    .map((r) => ({
      eval: r.eval_id,
      configuration: r.configuration,
      run: r.run_number,
      pass_rate: r.result.pass_rate,
      passed: r.result.passed,
      failed: r.result.failed,
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  skill = await smallExample(dir, "csv-summary", [0, 1, 2, 10, 11, 12]);
  wholeOut = (await runOf(["--workspace", join(dir, "whole")])).stdout;
  shardOut = (await runOf(["--workspace", join(dir, "shard-1"), "--shard", "1/2"])).stdout;
  await runOf(["--workspace", join(dir, "shard-2"), "--shard", "2/2"]);
}, 600_000);
afterAll(() => cleanup());

describe("skillgym run --shard and skillgym merge (two real processes against the sim)", () => {
  it("each shard is a self-describing part of one plan, the two together the whole plan once", async () => {
    const one = IterationRecord.parse(await readJson(join(dir, "shard-1", "iteration-1", "iteration.json")));
    const two = IterationRecord.parse(await readJson(join(dir, "shard-2", "iteration-1", "iteration.json")));
    expect(one.shard).toMatchObject({ index: 1, count: 2 });
    expect(two.shard).toMatchObject({ index: 2, count: 2, plan_hash: one.shard?.plan_hash });
    expect(two.skill_hash).toBe(one.skill_hash);
    expect(one.agent?.name).toBe("claude-code");
    const plan = TriggerPlan.parse(
      await readJson(join(dir, "shard-1", "iteration-1", "triggers", "plan.json")),
    );
    expect(plan.shard).toMatchObject({ index: 1, count: 2 });
    const b1 = Benchmark.parse(await readJson(join(dir, "shard-1", "iteration-1", "benchmark.json")));
    const b2 = Benchmark.parse(await readJson(join(dir, "shard-2", "iteration-1", "benchmark.json")));
    expect(Math.abs(b1.runs.length - b2.runs.length)).toBeLessThanOrEqual(1);
    expect(b1.runs.length + b2.runs.length).toBe(6);
    // Its own summary says its figures are a part.
    expect(shardOut.split("\n")[0]).toMatch(
      /^shard 1\/2: partial figures, this shard's part of the plan only/,
    );
    expect(wholeOut).not.toContain("partial figures");
  });

  it("merges into one ordinary iteration equal to the unsharded run's, with JUnit and a step summary", async () => {
    const into = join(dir, "merged");
    const junit = join(dir, "junit.xml");
    const summaryFile = join(dir, "step-summary.md");
    await writeFile(summaryFile, "earlier step\n");
    const result = skillgymOnDouble(
      [
        "merge",
        join(dir, "shard-2"),
        join(dir, "shard-1"),
        "--into",
        into,
        "--junit",
        junit,
        "--min-pass-rate",
        "0.99",
      ],
      { ...process.env, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_ACTIONS: "true" },
    );
    expect(result.stderr).toBe("");
    // The terminal summary of run, for the merged whole: the same banner, pass rates and trigger scores.
    const told = (out: string) =>
      out.split("\n").filter((l) => /^(SIMULATED|evals:|triggers:|\d+ eval runs errored)/.test(l));
    expect(told(wholeOut).length).toBeGreaterThanOrEqual(3);
    expect(told(result.stdout)).toEqual(told(wholeOut));
    expect(result.stdout).toMatch(/^cost: \$0\.0000/m);
    expect(result.stdout).toMatch(/^gate min-pass-rate: (passed|FAILED)/m);
    expect(result.stdout).not.toContain("partial merge");
    const iteration = join(into, "iteration-1");
    const whole = join(dir, "whole", "iteration-1");
    const merged = Benchmark.parse(await readJson(join(iteration, "benchmark.json")));
    const unsharded = Benchmark.parse(await readJson(join(whole, "benchmark.json")));
    expect(byRun(merged)).toEqual(byRun(unsharded));
    for (const configuration of ["with_skill", "without_skill"] as const)
      expect(merged.run_summary[configuration]?.pass_rate).toEqual(
        unsharded.run_summary[configuration]?.pass_rate,
      );
    expect(merged.run_summary.delta?.pass_rate).toBe(unsharded.run_summary.delta?.pass_rate);
    const mergedTriggers = TriggerResults.parse(
      await readJson(join(iteration, "triggers", "trigger-results.json")),
    );
    const wholeTriggers = TriggerResults.parse(
      await readJson(join(whole, "triggers", "trigger-results.json")),
    );
    expect(mergedTriggers.results).toEqual(wholeTriggers.results);
    expect(mergedTriggers.summary).toEqual(wholeTriggers.summary);

    // The files an unsharded run writes, skill-creator's among them.
    const record = IterationRecord.parse(await readJson(join(iteration, "iteration.json")));
    expect(record.shard).toBeUndefined();
    expect(record.status).toBe("complete");
    expect(record.merged_from).toMatchObject({ count: 2, shards: [1, 2], missing: [] });
    for (const file of ["benchmark.json", "benchmark.md", "report.html", "triggers/plan.json"])
      await readFile(join(iteration, file));
    const evalDirs = (await readdir(iteration)).filter((n) => n.startsWith("eval-")).sort();
    expect(evalDirs).toEqual((await readdir(whole)).filter((n) => n.startsWith("eval-")).sort());
    for (const evalDir of evalDirs) {
      await readJson(join(iteration, evalDir, "eval_metadata.json"));
      for (const configuration of ["with_skill", "without_skill"]) {
        const run = join(iteration, evalDir, configuration, "run-1");
        for (const file of ["grading.json", "timing.json", "outputs/metrics.json", "transcript.jsonl"])
          await readFile(join(run, file));
      }
    }

    // One testcase per run and per query; the gate's failure is annotated and summarised.
    const xml = parseXml(await readFile(junit, "utf8"));
    const suites = elements(xml, "testsuite");
    expect(suites.map((s) => s.attributes.name)).toEqual([
      "csv-summary with_skill",
      "csv-summary without_skill",
      "csv-summary triggers",
    ]);
    expect(elements(suites[0]!, "testcase")).toHaveLength(3);
    expect(elements(suites[1]!, "testcase")).toHaveLength(3);
    expect(elements(suites[2]!, "testcase")).toHaveLength(6);
    const failures = elements(suites[1]!, "failure");
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]!.text).toContain("evidence:");
    const gateFailed = unsharded.run_summary.with_skill!.pass_rate.mean < 0.99;
    expect(result.code).toBe(gateFailed ? 1 : 0);
    if (gateFailed) expect(result.stdout).toContain("::error title=skillgym gate min-pass-rate::");
    const summary = await readFile(summaryFile, "utf8");
    expect(summary.startsWith("earlier step\n## skillgym: csv-summary")).toBe(true);
    expect(summary).toContain("| with_skill |");
  });

  it("refuses shards of different plans, a repeated shard and a missing one, writing nothing", async () => {
    const into = join(dir, "refused");
    const twice = await skillgymHereOnDouble([
      "merge",
      join(dir, "shard-1"),
      join(dir, "shard-1"),
      "--into",
      into,
    ]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("shard 1/2 is given twice");

    const missing = await skillgymHereOnDouble(["merge", join(dir, "shard-1"), "--into", into]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("shard 2/2 missing");

    const otherN = join(dir, "other-n");
    await cp(join(dir, "shard-2"), otherN, { recursive: true });
    const file = join(otherN, "iteration-1", "iteration.json");
    const record = await readJson(file);
    await writeFile(file, JSON.stringify({ ...record, shard: { ...(record.shard as object), count: 3 } }));
    const n = await skillgymHereOnDouble(["merge", join(dir, "shard-1"), otherN, "--into", into]);
    expect(n.code).toBe(2);
    expect(n.stderr).toContain(`${join(dir, "shard-1")} vs ${otherN}:\n    shard count n: 2 vs 3`);

    const otherSkill = await skillgymHereOnDouble([
      "eval",
      "examples/release-notes",
      "--simulate",
      "--runs",
      "1",
      "--only",
      "1",
      "--baseline",
      "none",
      "--no-grade",
      "--workspace",
      join(dir, "other-skill"),
      "--shard",
      "2/2",
    ]);
    expect(otherSkill.code).toBe(0);
    const otherPlan = await skillgymHereOnDouble([
      "merge",
      join(dir, "shard-1"),
      join(dir, "other-skill"),
      "--into",
      into,
    ]);
    expect(otherPlan.code).toBe(2);
    // What differs, in words first; no run is said to be in two shards of plans that differ.
    expect(otherPlan.stderr).toContain(`${join(dir, "shard-1")} vs ${join(dir, "other-skill")}:`);
    expect(otherPlan.stderr).toContain("    skill: csv-summary vs release-notes");
    expect(otherPlan.stderr).toContain("    triggers: ran vs not run");
    expect(otherPlan.stderr).toContain("    evals: 1, 2, 3 vs basic");
    expect(otherPlan.stderr).not.toContain("trigger queries:");
    expect(otherPlan.stderr).toContain("    configurations: with_skill, without_skill vs with_skill");
    expect(otherPlan.stderr).toContain("    skill hash (evals): ");
    expect(otherPlan.stderr).toContain("    plan hash (evals): ");
    expect(otherPlan.stderr).not.toContain("is also in");
    await expect(readdir(into)).rejects.toThrow();

    // --into a shard's folder, inside one, or the workspace of a shard given by its iteration folder.
    for (const [target, shards] of [
      [join(dir, "shard-1"), ["shard-1", "shard-2"]],
      [join(dir, "shard-2", "merged"), ["shard-1", "shard-2"]],
      [join(dir, "shard-2"), ["shard-1", join("shard-2", "iteration-1")]],
    ] as const) {
      const before = await readdir(join(dir, "shard-1"));
      const refused = await skillgymHereOnDouble([
        "merge",
        ...shards.map((s) => join(dir, s)),
        "--into",
        target,
      ]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`--into ${target} is `);
      expect(await readdir(join(dir, "shard-1"))).toEqual(before);
    }
    await expect(readdir(join(dir, "shard-2", "merged"))).rejects.toThrow();

    const partial = await skillgymHereOnDouble([
      "merge",
      join(dir, "shard-1"),
      "--into",
      into,
      "--partial",
      "--json",
    ]);
    expect(partial.code).toBe(0);
    const out = JSON.parse(partial.stdout);
    expect(out.merged_from).toMatchObject({ shards: [1], missing: [2] });
    expect(out.partial).toMatchObject({
      count: 2,
      planned_runs: { eval: 6, trigger: 12 },
      shards: [{ index: 2, state: "missing" }],
    });
    const partialRecord = IterationRecord.parse(await readJson(join(into, "iteration-1", "iteration.json")));
    expect(partialRecord.status).toBe("interrupted");
  });

  it("merges the 429s of every shard into iteration.json and plan.json, not the first shard's alone", async () => {
    const limits = [
      { events: 2, reductions: 1, lowest_concurrency: 2, final_concurrency: 3, max_concurrency: 3 },
      { events: 5, reductions: 2, lowest_concurrency: 1, final_concurrency: 2, max_concurrency: 3 },
    ];
    const copies = await Promise.all(
      [1, 2].map(async (index) => {
        const copy = join(dir, `limited-${index}`);
        await cp(join(dir, `shard-${index}`), copy, { recursive: true });
        for (const file of ["iteration.json", "triggers/plan.json"]) {
          const path = join(copy, "iteration-1", file);
          await writeFile(
            path,
            JSON.stringify({ ...(await readJson(path)), rate_limits: limits[index - 1] }),
          );
        }
        return copy;
      }),
    );
    const into = join(dir, "limited-merged");
    const result = await skillgymHereOnDouble(["merge", ...copies, "--into", into]);
    expect(result.stderr).not.toContain("error");
    const combined = {
      events: 7,
      reductions: 3,
      lowest_concurrency: 1,
      final_concurrency: 2,
      max_concurrency: 3,
    };
    const record = IterationRecord.parse(await readJson(join(into, "iteration-1", "iteration.json")));
    expect(record.rate_limits).toEqual(combined);
    const plan = TriggerPlan.parse(await readJson(join(into, "iteration-1", "triggers", "plan.json")));
    expect(plan.rate_limits).toEqual(combined);
  });

  it("refuses a bad --shard before anything starts, naming the flag", async () => {
    for (const value of ["0/2", "3/2", "1/0", "x"]) {
      const result = await skillgymHereOnDouble([
        "run",
        "examples/csv-summary",
        "--simulate",
        "--shard",
        value,
        "--workspace",
        join(dir, "bad"),
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--shard");
    }
  });
});
