import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useReleaseNotes } from "./command-fixture.js";

// `skillgym run` in this process on a copy of examples/release-notes with two trigger queries, on the test double.
const { at, command: run } = useReleaseNotes("run");

describe("skillgym run --dry-run", () => {
  it("plans three runs per eval and configuration and three per trigger query by default, starting nothing", async () => {
    const result = await run("--dry-run");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("plan for release-notes: 18 eval runs, 6 trigger runs, 12 judge calls");
    expect(lines[1]).toBe(
      "estimated cost: about $0.00 (rough: $0.00 per eval run, $0.00 per trigger run, $0.00 per judge call)",
    );
    expect(lines[2]).toMatch(/^estimated wall time: about .* at --concurrency 4 \(/);
    expect(lines).toContain(`result store: ${join(at.dir, "release-notes-workspace", ".skillgym-cache")}`);
    expect(lines.slice(-2)).toEqual(["credentials: none needed (simulated)", "nothing was started"]);
    expect(result.stderr).toBe("");
  });

  it("plans what the flags ask for: runs, baseline, trigger runs, only, grading and concurrency", async () => {
    const result = await run(
      "--dry-run",
      "--runs",
      "2",
      "--baseline",
      "none",
      "--trigger-runs",
      "1",
      "--only",
      "1",
      "--no-grade",
      "--concurrency",
      "2",
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe("plan for release-notes: 2 eval runs, 2 trigger runs, 0 judge calls");
    expect(lines[2]).toMatch(/ at --concurrency 2 \(/);
    const baseline = await run("--dry-run", "--runs", "1", "--trigger-runs", "2");
    expect(baseline.stdout.split("\n")[0]).toBe(
      "plan for release-notes: 6 eval runs, 4 trigger runs, 4 judge calls",
    );
  });

  it("prints the plan as JSON with --json, credentials simulated", async () => {
    const result = await run("--dry-run", "--json");
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan).toMatchObject({
      agentRuns: 18,
      triggerRuns: 6,
      judgeCalls: 12,
      skill: "release-notes",
      concurrency: 4,
      credentials: "simulated",
    });
    expect(result.stdout.startsWith('{\n  "agentRuns": 18,')).toBe(true);
    expect(result.stdout).not.toContain("nothing was started");
  });

  it("refuses --screen replay with several agents or models, before anything starts", async () => {
    const result = await run("--dry-run", "--screen", "replay", "--model", "a,b");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "skillgym: --screen replay takes one agent and one model at a time\n" +
        "  fix: run once per --agent and --model with --screen replay, or leave --screen out\n",
    );
  });
});

describe("skillgym run", () => {
  it("runs the evals and triggers, prints the summary and the report, exit 0", async () => {
    const result = await run("--runs", "1", "--trigger-runs", "1", "--workspace", join(at.dir, "text"));
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SIMULATED: /);
    expect(lines).toContain("triggers: 2/2 queries passed, accuracy 100%, precision 100%, recall 100%");
    expect(lines.at(-1)).toBe(`report: ${join(at.dir, "text", "iteration-1", "report.html")}`);
    expect(result.stderr).toContain(`writing ${join(at.dir, "text", "iteration-1")}: 6 runs`);
  });

  it("prints the result as JSON, fails a gate with exit 1, and reads from the store unless --fresh", async () => {
    const workspace = join(at.dir, "json");
    const common = ["--runs", "1", "--trigger-runs", "1", "--workspace", workspace, "--json"];
    // A description that names none of the skill's uses: the query that should trigger does not.
    const gated = await run(...common, "--description", "Formats tables.", "--min-trigger-accuracy", "0.9");
    expect(gated.code).toBe(1);
    const first = JSON.parse(gated.stdout);
    expect(first).toMatchObject({
      iteration_dir: join(workspace, "iteration-1"),
      simulated: true,
      sim_script: join(at.skill, "evals", "sim-script.json"),
      cancelled: false,
      budget_exhausted: false,
      cost_usd: 0,
      savings: { reused_runs: 0, ran_runs: 8, saved_usd: 0 },
      triggers: { total: 2, passed: 1, accuracy: 0.5 },
      gates: [{ name: "min-trigger-accuracy", passed: false }],
      report: join(workspace, "iteration-1", "report.html"),
    });
    expect(first.pass_rate.with_skill.pass_rate.n).toBe(3);
    expect(first.statistics.verdict.verdict).toBe("helps");
    expect(first).not.toHaveProperty("store_read");

    const again = JSON.parse((await run(...common)).stdout);
    expect(again.savings).toMatchObject({ reused_runs: 6, ran_runs: 2 });
    expect(again.gates).toEqual([]);
    const fresh = JSON.parse((await run(...common, "--fresh")).stdout);
    expect(fresh).toMatchObject({ store_read: false, savings: { reused_runs: 0, ran_runs: 8 } });
  });
});
