import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { AgentMatrix, AgentsIterationRecord } from "../../src/contracts/matrix.js";
import { IterationRecord } from "../../src/contracts/run-record.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { elements, parseXml } from "../ci/xml-tree.js";
import { skillgym } from "../cli/cli-process.js";
import { readJson, tempDir } from "./helpers.js";
import { smallExample } from "./small-example.js";

// Real Claude Code and real Codex against the sim, in separate processes: one unsharded run over both agents,
// two shards of the same run, then merge. release-notes with 6 of its trigger queries: 12 runs an agent.
const agents = ["claude-code", "codex"];
const common = ["--simulate", "--runs", "1", "--trigger-runs", "1", "--all-runs"];
let dir: string;
let cleanup: () => Promise<void>;
let skill: string;

function runOf(args: string[]) {
  const result = skillgym(["run", skill, ...common, ...args]);
  if (result.code !== 0)
    throw new Error(`skillgym run ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result;
}

// What a run decided, apart from when and how long: the same runs with the same verdicts.
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

// A matrix row without what depends on the machine's pace (and on how many machines there were).
function verdicts(m: AgentMatrix) {
  return m.agents.map(({ wall_seconds: _w, cost_usd: _c, ...row }) => row);
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  skill = await smallExample(dir, "release-notes", [0, 1, 2, 10, 11, 12]);
  const both = ["--agent", agents.join(",")];
  runOf([...both, "--workspace", join(dir, "whole")]);
  runOf([...both, "--workspace", join(dir, "shard-1"), "--shard", "1/2"]);
  runOf([...both, "--workspace", join(dir, "shard-2"), "--shard", "2/2"]);
}, 600_000);
afterAll(() => cleanup());

describe("skillgym merge of a run over several agents (real Claude Code and Codex against the sim)", () => {
  it("merges per agent and writes the matrix an unsharded run over the same agents writes", async () => {
    const into = join(dir, "merged");
    const junit = join(dir, "junit.xml");
    const result = skillgym([
      "merge",
      join(dir, "shard-2"),
      join(dir, "shard-1"),
      "--into",
      into,
      "--junit",
      junit,
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const iteration = join(into, "iteration-1");
    const whole = join(dir, "whole", "iteration-1");

    const root = AgentsIterationRecord.parse(await readJson(join(iteration, "iteration.json")));
    expect(root.agents).toEqual(agents);
    expect(root.status).toBe("complete");
    expect(root.request).toEqual(
      AgentsIterationRecord.parse(await readJson(join(whole, "iteration.json"))).request,
    );
    expect(root.merged_from).toMatchObject({ count: 2, shards: [1, 2], missing: [] });
    const merged = AgentMatrix.parse(await readJson(join(iteration, "matrix.json")));
    const unsharded = AgentMatrix.parse(await readJson(join(whole, "matrix.json")));
    expect(merged.agents.map((r) => r.agent)).toEqual(agents);
    expect(verdicts(merged)).toEqual(verdicts(unsharded));
    expect(merged.agents.every((r) => r.graded_runs === 6 && r.status === "complete")).toBe(true);
    const markdown = await readFile(join(iteration, "benchmark.md"), "utf8");
    expect(markdown).toContain("# Agents — release-notes");
    expect(markdown).toContain("- [codex](codex/benchmark.md)");
    await readFile(join(iteration, "report.html"));

    for (const agent of agents) {
      const mine = join(iteration, agent);
      const theirs = join(whole, agent);
      const record = IterationRecord.parse(await readJson(join(mine, "iteration.json")));
      expect(record.agent?.name).toBe(agent);
      expect(record.shard).toBeUndefined();
      expect(record.merged_from).toMatchObject({ shards: [1, 2], missing: [] });
      const b = Benchmark.parse(await readJson(join(mine, "benchmark.json")));
      expect(byRun(b)).toEqual(byRun(Benchmark.parse(await readJson(join(theirs, "benchmark.json")))));
      const t = TriggerResults.parse(await readJson(join(mine, "triggers", "trigger-results.json")));
      const tw = TriggerResults.parse(await readJson(join(theirs, "triggers", "trigger-results.json")));
      expect(t.results).toEqual(tw.results);
      expect(t.summary).toEqual(tw.summary);
      const evalDirs = (await readdir(mine)).filter((n) => n.startsWith("eval-")).sort();
      expect(evalDirs).toEqual((await readdir(theirs)).filter((n) => n.startsWith("eval-")).sort());
      for (const file of ["benchmark.md", "report.html", "triggers/plan.json"])
        await readFile(join(mine, file));
    }

    // One testsuite per agent and configuration, and one per agent's triggers; a testcase per run or query.
    const suites = elements(parseXml(await readFile(junit, "utf8")), "testsuite");
    expect(suites.map((s) => s.attributes.name)).toEqual(
      agents.flatMap((a) => [
        `release-notes ${a} with_skill`,
        `release-notes ${a} without_skill`,
        `release-notes ${a} triggers`,
      ]),
    );
    expect(suites.map((s) => elements(s, "testcase").length)).toEqual([3, 3, 6, 3, 3, 6]);
    expect(elements(suites[4]!, "testcase")[0]!.attributes.classname).toBe(
      "release-notes.codex.without_skill",
    );
  });

  it("refuses a shard that ran other agents, naming it, and writes nothing", async () => {
    const into = join(dir, "refused");
    runOf([
      "--agent",
      "claude-code",
      "--only",
      "basic",
      "--workspace",
      join(dir, "one-agent"),
      "--shard",
      "2/2",
    ]);
    const one = skillgym(["merge", join(dir, "shard-1"), join(dir, "one-agent"), "--into", into]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain(
      `${join(dir, "shard-1")} vs ${join(dir, "one-agent")}:\n    agents: claude-code, codex (a run of several) vs claude-code (a run of one)`,
    );

    const reordered = join(dir, "reordered");
    await cp(join(dir, "shard-2"), reordered, { recursive: true });
    const file = join(reordered, "iteration-1", "iteration.json");
    const record = await readJson(file);
    await writeFile(file, JSON.stringify({ ...record, agents: ["codex", "claude-code"] }));
    const other = skillgym(["merge", join(dir, "shard-1"), reordered, "--into", into]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(
      `${join(dir, "shard-1")} vs ${reordered}:\n    agents: claude-code, codex vs codex, claude-code`,
    );

    const missing = skillgym(["merge", join(dir, "shard-1"), "--into", into]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("claude-code: shard 2/2 missing");
    expect(missing.stderr).toContain("codex: shard 2/2 missing");
    await expect(readdir(into)).rejects.toThrow();
  }, 300_000);

  it("merge --partial of several agents records each agent's missing runs and their sum at the root", async () => {
    const into = join(dir, "partial");
    const result = skillgym(["merge", join(dir, "shard-1"), "--into", into, "--partial"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("SIMULATED");
    expect(result.stdout).toMatch(
      /^partial merge: .*claude-code shard 2\/2 not given: .*codex shard 2\/2 not given/m,
    );
    const iteration = join(into, "iteration-1");
    const root = AgentsIterationRecord.parse(await readJson(join(iteration, "iteration.json")));
    expect(root.status).toBe("interrupted");
    const parts = await Promise.all(
      agents.map(async (a) => IterationRecord.parse(await readJson(join(iteration, a, "iteration.json")))),
    );
    for (const part of parts) {
      expect(part.status).toBe("interrupted");
      expect(part.partial).toMatchObject({ planned_runs: { eval: 6, trigger: 6 }, shards: [{ index: 2 }] });
    }
    expect(root.partial).toMatchObject({
      planned_runs: { eval: 12, trigger: 12 },
      missing_runs: {
        eval: parts.reduce((n, p) => n + (p.partial?.missing_runs.eval ?? 0), 0),
        trigger: parts.reduce((n, p) => n + (p.partial?.missing_runs.trigger ?? 0), 0),
      },
    });
  });

  it("--dry-run --shard counts only the shard's share, the runs the shard then made", async () => {
    const shares = ["1/2", "2/2"].map((shard) => {
      const result = skillgym([
        "run",
        skill,
        ...common,
        "--agent",
        agents.join(","),
        "--shard",
        shard,
        "--dry-run",
        "--workspace",
        join(dir, "dry"),
      ]);
      expect(result.code).toBe(0);
      const line =
        /shard (\d)\/2: (\d+) of (\d+) runs \((\d+) of (\d+) eval runs, (\d+) of (\d+) trigger runs\)/.exec(
          result.stdout,
        );
      expect(line, result.stdout).not.toBeNull();
      const [, , mine, all, evals, allEvals, triggers, allTriggers] = line!.map(Number);
      expect([all, allEvals, allTriggers]).toEqual([12, 6, 6]);
      expect(mine).toBe((evals as number) + (triggers as number));
      expect(result.stdout).toContain(
        `per agent (claude-code, codex): ${evals} eval runs, ${triggers} trigger runs`,
      );
      return { evals: evals as number, triggers: triggers as number };
    });
    expect(shares[0]!.evals + shares[1]!.evals).toBe(6);
    expect(shares[0]!.triggers + shares[1]!.triggers).toBe(6);
    for (const [i, share] of shares.entries()) {
      const part = join(dir, `shard-${i + 1}`, "iteration-1", "codex");
      expect(Benchmark.parse(await readJson(join(part, "benchmark.json"))).runs).toHaveLength(share.evals);
      const plan = TriggerResults.parse(await readJson(join(part, "triggers", "trigger-results.json")));
      expect(plan.results.reduce((n, r) => n + r.runs, 0)).toBe(share.triggers);
    }
  });
});
