import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { cli, MISSING_PATH_REFUSALS, useReleaseNotes } from "./command-fixture.js";
import { interrupted } from "./interrupted.js";

// `skillgym run` in this process on a copy of examples/release-notes with two trigger queries, on the test double.
const { at, command: run } = useReleaseNotes("run");

// An openai judge without a model is refused before the first run (exit 2), and not made at all with --no-grade.
async function judgeOnlyWhenGraded(one: readonly string[], prefix: string, ...ungradedFlags: string[]) {
  const refused = await run(...one, "--judge", "openai", "--workspace", join(at.dir, `${prefix}no-judge`));
  expect(refused.code).toBe(2);
  expect(refused.stderr).toBe(
    "skillgym: the openai judge needs a model\n" +
      "  fix: pass --judge-model, e.g. --judge-model gpt-4.1 or the name your local server gives its model\n",
  );
  const ungraded = await run(
    ...one,
    ...["--no-grade", "--judge", "openai", ...ungradedFlags],
    ...["--workspace", join(at.dir, `${prefix}ungraded`)],
  );
  expect(ungraded.code).toBe(0);
}

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

  it("plans each model apart at no cost under --simulate, as text and as JSON", async () => {
    const text = await run("--dry-run", "--model", "m1,m2");
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n").slice(0, 2)).toEqual([
      "plan for release-notes, per model (m1, m2): 18 eval runs, 6 trigger runs, 12 judge calls",
      "estimated cost per model: about $0.00 (rough: $0.00 per eval run, $0.00 per trigger run, $0.00 per judge call); all 2 models: about $0.00",
    ]);
    expect(text.stdout.endsWith("\ncredentials: none needed (simulated)\nnothing was started\n")).toBe(true);
    const json = JSON.parse((await run("--dry-run", "--model", "m1,m2", "--json")).stdout);
    expect(json.agents.map((a: { agent: string; costUsd: number }) => [a.agent, a.costUsd])).toEqual([
      ["m1", 0],
      ["m2", 0],
    ]);
    expect(json).toMatchObject({ cost_usd: 0, credentials: "simulated" });
  });

  it("refuses --agent-bin with several agents, saying how to give each its binary", async () => {
    const result = await run("--dry-run", "--agent", "claude-code,codex");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "skillgym: --agent-bin names one binary; it cannot go with several agents\n" +
        "  fix: put each agent's binary on PATH (or in node_modules) and leave out --agent-bin\n",
    );
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
  it("runs the evals and triggers, prints the summary and the report, exit 0, and lets go of Ctrl-C", async () => {
    const handlers = () => [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
    const before = handlers();
    const result = await run("--runs", "1", "--trigger-runs", "1", "--workspace", join(at.dir, "text"));
    expect(result.code).toBe(0);
    expect(handlers()).toEqual(before);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SIMULATED: /);
    expect(lines).toContain("triggers: 2/2 queries passed, accuracy 100%, precision 100%, recall 100%");
    expect(lines).toContain("cost: $0.0000");
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

describe("skillgym run's flags", () => {
  it("plans this shard's part with --shard, and the replay screen per condition with --screen replay", async () => {
    const shard = await run("--dry-run", "--shard", "1/2");
    expect(shard.code).toBe(0);
    expect(shard.stdout.split("\n").slice(0, 2)).toEqual([
      "shard 1/2: 12 of 24 runs (9 of 18 eval runs, 3 of 6 trigger runs); the lines below are this shard's",
      "plan for release-notes: 9 eval runs, 3 trigger runs, 6 judge calls",
    ]);
    const screened = await run("--dry-run", "--screen", "replay", "--conditions", "clean,real");
    expect(screened.stdout).toContain(
      "the rest costs about $0.00 (the store saves about $0.00)\n" +
        "with --screen replay: 2 capture runs (one per key, unless stored), 12 replay requests, up to 12 agent runs (those replay leaves undecided)\n" +
        "credentials: none needed (simulated)\n",
    );
  });

  it("plans the suite --evals names", async () => {
    const suite = join(at.skill, "evals", "evals.json");
    const one = join(at.skill, "evals", "one-eval.json");
    const parsed = JSON.parse(await readFile(suite, "utf8"));
    await writeFile(one, JSON.stringify({ ...parsed, evals: parsed.evals.slice(0, 1) }));
    const result = await run("--dry-run", "--evals", one);
    expect(result.stdout.split("\n")[0]).toBe(
      "plan for release-notes: 6 eval runs, 0 trigger runs, 6 judge calls",
    );
  });

  for (const [flag, says] of MISSING_PATH_REFUSALS)
    it(`refuses a ${flag} that is not there, exit 2`, async () => {
      const nowhere = join(at.dir, "nowhere");
      const result = await run(flag, nowhere, "--runs", "1", "--workspace", join(at.dir, "refused"));
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(says.replace("NOWHERE", nowhere));
    });

  it("gates on --min-pass-rate and reports the replay screen in the JSON result", async () => {
    const result = await run(
      ...["--runs", "1", "--trigger-runs", "1", "--baseline", "none", "--only", "1", "--json"],
      ...["--min-pass-rate", "0.5", "--screen", "replay", "--workspace", join(at.dir, "gated")],
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      screen: { kind: "replay", decided_by_replay: 2, decided_by_agent: 0, captured: true },
      gates: [{ name: "min-pass-rate", passed: true, message: "with_skill pass rate 100.0% >= 50.0%" }],
    });
  });

  it("resumes the latest iteration with --resume, and says this shard's figures are partial", async () => {
    const workspace = join(at.dir, "resumed");
    const common = ["--runs", "1", "--baseline", "none", "--only", "1", "--workspace", workspace];
    const json = await run(...common, "--trigger-runs", "1", "--shard", "1/2", "--json");
    expect(JSON.parse(json.stdout).iteration_dir).toBe(join(workspace, "iteration-1"));
    const resumed = await run(...common, "--trigger-runs", "2", "--shard", "1/2", "--resume");
    expect(resumed.code).toBe(0);
    expect(resumed.stderr.startsWith(`resuming ${join(workspace, "iteration-1")}: `)).toBe(true);
    expect(resumed.stdout.split("\n")[0]).toBe(
      "shard 1/2: partial figures, this shard's part of the plan only; `skillgym merge` every shard's folder for the whole result",
    );
  });

  it("says it is cancelling on Ctrl-C and keeps what finished, exit 130", async () => {
    const result = await interrupted(() =>
      run("--runs", "1", "--trigger-runs", "1", "--workspace", join(at.dir, "cancelled")),
    );
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n");
  });
});

describe("skillgym run --dry-run of a real run", () => {
  // The agent's login as a real run would look for it: only the environment given, and a home without logins.
  async function dryRun(env: Record<string, string>, ...flags: string[]) {
    const saved = { ...process.env };
    for (const key of Object.keys(process.env))
      if (/^(ANTHROPIC_|CLAUDE_|OPENAI_)/.test(key)) delete process.env[key];
    const home = join(at.dir, "empty-home");
    await mkdir(home, { recursive: true });
    Object.assign(process.env, { HOME: home }, env);
    try {
      return await cli(["run", at.skill, "--agent-bin", at.binary, "--dry-run", ...flags]);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  }

  it("checks the agent's login and the judge's, and prints the plan as JSON with credentials found", async () => {
    const key = { ANTHROPIC_API_KEY: "sk-test-not-a-key" };
    const graded = await dryRun(key);
    expect(graded.code).toBe(0);
    // Priced at the defaults, no history being there: a real run is not free.
    expect(graded.stdout.split("\n")[1]).toBe(
      "estimated cost: about $6.30 (rough: $0.30 per eval run, $0.05 per trigger run, $0.05 per judge call)",
    );
    expect(
      graded.stdout.endsWith(
        "\ncredentials: Claude Code logs in with ANTHROPIC_API_KEY; judge (claude-code): ready\nnothing was started\n",
      ),
    ).toBe(true);
    const ungraded = await dryRun(key, "--no-grade");
    expect(
      ungraded.stdout.endsWith(
        "\ncredentials: Claude Code logs in with ANTHROPIC_API_KEY\nnothing was started\n",
      ),
    ).toBe(true);
    const json = JSON.parse((await dryRun(key, "--json")).stdout);
    expect(json.credentials).toBe("found");
    const models = await dryRun(key, "--model", "m1,m2");
    expect(
      models.stdout.endsWith(
        "\ncredentials: Claude Code logs in with ANTHROPIC_API_KEY; judge (claude-code): ready\nnothing was started\n",
      ),
    ).toBe(true);
    const modelsJson = JSON.parse((await dryRun(key, "--model", "m1,m2", "--json")).stdout);
    expect(modelsJson.credentials).toBe("found");
    const [m1, m2] = modelsJson.agents.map((a: { costUsd: number }) => a.costUsd);
    expect(m1).toBeCloseTo(6.3);
    expect(m2).toBeCloseTo(6.3);
    expect(modelsJson.cost_usd).toBeCloseTo(12.6);
    const ungradedModels = await dryRun(key, "--model", "m1,m2", "--no-grade");
    expect(ungradedModels.stdout.split("\n").slice(0, 2)).toEqual([
      "plan for release-notes, per model (m1, m2): 18 eval runs, 6 trigger runs, 0 judge calls",
      "estimated cost per model: about $5.70 (rough: $0.30 per eval run, $0.05 per trigger run, $0.05 per judge call); all 2 models: about $11.40",
    ]);
    expect(
      ungradedModels.stdout.endsWith(
        "\ncredentials: Claude Code logs in with ANTHROPIC_API_KEY\nnothing was started\n",
      ),
    ).toBe(true);
  });

  it("without a login prints the plan alone, no store forecast, and exits 3", async () => {
    const result = await dryRun({});
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(
      /^plan for release-notes: [^\n]*\nestimated cost: [^\n]*\nestimated wall time: [^\n]*\n$/,
    );
  });
});

describe("skillgym run's runs", () => {
  const one = ["--runs", "1", "--trigger-runs", "1", "--baseline", "none", "--only", "1"];

  it("shows the spending against --max-cost in the live status", async () => {
    const statuses: string[] = [];
    const io = {
      ...captureIo(),
      status: (line: (() => string) | undefined) => {
        if (line) statuses.push(line());
      },
    };
    const code = await main(
      ["run", at.skill, "--simulate", "--agent-bin", at.binary, ...one, "--max-cost", "5"].concat(
        "--workspace",
        join(at.dir, "capped"),
      ),
      io,
    );
    expect(code).toBe(0);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s.endsWith(" of $5.00 (--max-cost)"))).toBe(true);
  });

  it("says with --fresh that the result store was not read", async () => {
    const result = await run(...one, "--fresh", "--workspace", join(at.dir, "fresh"));
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toContain(
      "cost: $0.0000 spent on 3 runs; the result store was not read (--fresh): every run was made again and stored",
    );
  });

  it("stops scheduling runs once --max-cost would be passed", async () => {
    const result = await run(...one, "--max-cost", "0.0001", "--json", "--workspace", join(at.dir, "broke"));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      budget_exhausted: true,
      savings: { ran_runs: 0 },
    });
  });

  it("makes the judge before the first run, and only when the runs are graded", () =>
    judgeOnlyWhenGraded(one, ""));

  it("tells of a run whose grading failed, and of its grading on --resume", async () => {
    // An expectation longer than a command line takes: an agent judge, given it in its prompt, cannot grade.
    const parsed = JSON.parse(await readFile(join(at.skill, "evals", "evals.json"), "utf8"));
    const long = join(at.skill, "evals", "long-expectation.json");
    const expectation = `The notes list every commit: ${"3b7a0d2 ".repeat(16_000)}`;
    await writeFile(
      long,
      JSON.stringify({ ...parsed, evals: [{ ...parsed.evals[0], expectations: [expectation] }] }),
    );
    const workspace = join(at.dir, "regraded");
    const common = ["--runs", "1", "--baseline", "none", "--evals", long, "--workspace", workspace];
    const runDir = join(workspace, "iteration-1", "eval-basic", "with_skill", "run-1");
    const failed = await run(...common, "--judge", "claude-code");
    expect(failed.code).toBe(0);
    const failure = failed.stderr.split("\n").find((line) => line.startsWith("  grading failed for "));
    expect(failure?.startsWith(`  grading failed for ${runDir}: `)).toBe(true);
    expect(failure).toMatch(
      /: the judge prompt has \d+ characters, more than a command line takes \(120000\); /,
    );
    const resumed = await run(...common, "--resume");
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`\n  graded ${runDir} (its grading had not finished)\n`);
  });

  it("records the one model --model names", async () => {
    const workspace = join(at.dir, "model");
    expect((await run(...one, "--model", "m1", "--workspace", workspace)).code).toBe(0);
    const results = JSON.parse(
      await readFile(join(workspace, "iteration-1", "triggers", "trigger-results.json"), "utf8"),
    );
    expect(results.model).toBe("m1");
  });

  it("gives every trigger query all its runs with --all-runs", async () => {
    const result = await run(
      ...["--runs", "1", "--baseline", "none", "--only", "1", "--trigger-runs", "5", "--all-runs"],
      ...["--workspace", join(at.dir, "all-runs"), "--json"],
    );
    expect(result.stderr).toContain("[10/10] query ");
  });

  it("keeps the runs' temporary workspaces with --keep-workspaces, and only then", async () => {
    const tmp = join(at.dir, "tmp");
    await mkdir(tmp);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await run(...one, "--workspace", join(at.dir, "removed"));
      expect(await readdir(tmp)).toEqual([]);
      await run(...one, "--workspace", join(at.dir, "kept"), "--keep-workspaces");
      expect(await readdir(tmp)).toContainEqual(expect.stringMatching(/^skillgym-run\./));
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});

describe("skillgym run with several models", () => {
  const one = ["--runs", "1", "--trigger-runs", "1", "--baseline", "none", "--only", "1", "--model", "m1,m2"];

  it("exits 1 when a gate fails, 0 when every gate holds", async () => {
    const failed = await run(
      ...one,
      ...["--workspace", join(at.dir, "models-gated"), "--json"],
      ...["--description", "Formats tables.", "--min-trigger-accuracy", "0.9"],
    );
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).gates).toMatchObject([{ passed: false }, { passed: false }]);
    const held = await run(...one, "--workspace", join(at.dir, "models-held"), "--min-pass-rate", "0.5");
    expect(held.code).toBe(0);
  });

  it("heads each model's part on stderr, and says with --fresh that the store was not read", async () => {
    const result = await run(...one, "--fresh", "--workspace", join(at.dir, "models-fresh"));
    expect(result.code).toBe(0);
    expect(result.stderr.startsWith("\n== m1 (model 1 of 2) ==\n")).toBe(true);
    expect(result.stderr).toContain("\n== m2 (model 2 of 2) ==\n");
    expect(result.stdout.split("\n")).toContain(
      "cost [m1]: $0.0000 spent on 3 runs; the result store was not read (--fresh): every run was made again and stored",
    );
  });

  it("heads each agent's part, and each agent and model's, as it starts", async () => {
    // Each agent the one npm installed (--agent-bin names one binary); --max-cost stops before the first run.
    const capped = (workspace: string, ...flags: string[]) =>
      cli([
        "run",
        at.skill,
        "--simulate",
        "--only",
        "1",
        "--max-cost",
        "0.0001",
        ...flags,
        "--workspace",
        join(at.dir, workspace),
      ]);
    const agents = await capped("agents-capped", "--agent", "claude-code,codex", "--model", "m1");
    expect(agents.code).toBe(0);
    expect(agents.stderr.startsWith("\n== claude-code (agent 1 of 2) ==\n")).toBe(true);
    expect(agents.stdout).toContain("\nstopped scheduling runs: --max-cost reached\n");
    const parts = await capped("parts-capped", "--agent", "claude-code,codex", "--model", "m1,m2");
    expect(parts.code).toBe(0);
    expect(parts.stderr.startsWith("\n== claude-code-m1 (part 1 of 4) ==\n")).toBe(true);
  });

  it("makes the judge before the first run, and only when the runs are graded", () =>
    judgeOnlyWhenGraded(one, "models-", "--max-cost", "0.0001"));

  it("exits 130 when cancelled", async () => {
    const result = await interrupted(() => run(...one, "--workspace", join(at.dir, "models-cancelled")));
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n");
  });
});
