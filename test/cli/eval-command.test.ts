import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { cli, useReleaseNotes } from "./command-fixture.js";
import { interrupted } from "./interrupted.js";

// `skillgym eval` in this process on a copy of examples/release-notes (three evals), on the test double.
const { at, workspace, command: evals } = useReleaseNotes("eval");

const SIMULATED = "(simulated: skillgym sim stood in for the model)";

describe("skillgym eval", () => {
  it("runs each eval once with the skill and without by default, and prints the pass rates and the verdict", async () => {
    const folder = workspace("text");
    const result = await evals("--workspace", folder);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `done: 6/6 runs finished, 0 errors, $0.0000 ${SIMULATED}\n` +
        `  ${join(folder, "iteration-1")}\n` +
        "evals: with_skill 100%, without_skill 29%, delta +0.71 (95% CI 0.50..0.83)\n" +
        "verdict: the skill helps (beyond ±0.05)\n",
    );
    expect(result.stderr).toContain(`writing ${join(folder, "iteration-1")}: 6 runs`);

    // Again: every run is served by the result store, and the cost line says so.
    const again = await evals("--workspace", folder);
    expect(again.stdout).toContain(`  ${join(folder, "iteration-2")}\n`);
    expect(again.stdout.trimEnd().split("\n").at(-1)).toBe(
      "cost: $0.0000 spent on 0 runs; 6 runs reused from the result store saved $0.0000",
    );

    // --fresh makes every run again; --no-grade leaves the pass rates out.
    const fresh = await evals("--workspace", folder, "--fresh", "--no-grade", "--effect-floor", "0.9");
    expect(fresh.stdout).toBe(
      `done: 6/6 runs finished, 0 errors, $0.0000 ${SIMULATED}\n` +
        `  ${join(folder, "iteration-3")}\n` +
        "cost: $0.0000 spent on 6 runs; the result store was not read (--fresh): every run was made again and stored\n",
    );
  });

  it("prints the result as JSON, with the flags' runs, baseline and evals", async () => {
    const folder = workspace("json");
    const result = await evals(
      "--workspace",
      folder,
      "--json",
      "--only",
      "1",
      "--baseline",
      "none",
      "--runs",
      "2",
    );
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({
      iteration_dir: join(folder, "iteration-1"),
      iteration: 1,
      resumed: false,
      simulated: true,
      sim_script: join(at.skill, "evals", "sim-script.json"),
      cancelled: false,
      runs: 2,
      succeeded: 2,
      errors: 0,
      cost_usd: 0,
      savings: { reused_runs: 0, ran_runs: 2, saved_usd: 0 },
    });
    expect(parsed.pass_rate.with_skill.pass_rate.n).toBe(2);
    expect(parsed.pass_rate).not.toHaveProperty("without_skill");
    expect(parsed).not.toHaveProperty("store_read");
    const fresh = JSON.parse((await evals("--workspace", folder, "--json", "--only", "1", "--fresh")).stdout);
    expect(fresh.store_read).toBe(false);
  });

  it("says what the store serves with --dry-run, starting nothing", async () => {
    const folder = workspace("dry");
    const plan = await evals("--workspace", folder, "--dry-run");
    expect(plan).toEqual({
      code: 0,
      stdout:
        `result store: ${join(folder, ".skillgym-cache")}\n` +
        "  eval runs: 0 of 6 served by the store, 6 to run; judge calls: 0 served, 4 to make\n" +
        "the rest costs about $0.00 (the store saves about $0.00)\n" +
        "nothing was started\n",
      stderr: "",
    });
    const json = JSON.parse(
      (await evals("--workspace", folder, "--dry-run", "--json", "--runs", "2")).stdout,
    );
    expect(json.evalRuns).toMatchObject({ runs: 12, served: 0, toRun: 12, judgeToRun: 8 });
    const ungraded = JSON.parse(
      (await evals("--workspace", folder, "--dry-run", "--json", "--no-grade")).stdout,
    );
    expect(ungraded.evalRuns).toMatchObject({ runs: 6, judgeToRun: 0 });
    // Without --simulate the runs are priced as a model's.
    const real = await cli(["eval", at.skill, "--workspace", folder, "--dry-run"]);
    expect(real.stdout).toContain("\nthe rest costs about $2.00 (the store saves about $0.00)\n");
  });

  it("describes its argument in its help", async () => {
    const help = await cli(["help", "eval"]);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(" skill the skill folder ");
  });
});

describe("skillgym eval's flags", () => {
  it("holds the verdict against the spread of the workspace's noise.json", async () => {
    const folder = workspace("noisy");
    const noise = ["noise", at.skill, "--simulate", "--agent-bin", at.binary, "--only", "1", "--runs", "2"];
    expect((await cli([...noise, "--workspace", folder])).code).toBe(0);
    const measured = JSON.parse(await readFile(join(folder, "noise.json"), "utf8"));
    await writeFile(join(folder, "noise.json"), JSON.stringify({ ...measured, spread: 0.9 }));
    const result = await evals("--workspace", folder, "--only", "1", "--runs", "2");
    expect(result.stdout.trimEnd().split("\n").at(-1)).toContain("0.90");
  });

  it("records the one model --model names, and continues the iteration with --resume", async () => {
    const folder = workspace("model");
    const common = ["--workspace", folder, "--only", "1", "--model", "m1"];
    expect((await evals(...common, "--runs", "2")).code).toBe(0);
    const record = await readFile(join(folder, "iteration-1", "iteration.json"), "utf8");
    expect(record).toContain('"m1"');
    const resumed = await evals(...common, "--runs", "1", "--resume");
    // Every run finished earlier: none ran now, and that is no failure of the agent.
    expect(resumed.code).toBe(0);
    expect(resumed.stderr.startsWith(`resuming ${join(folder, "iteration-1")}: 2 runs`)).toBe(true);
  });

  it("runs each model under the agent it names, claude-code by default", async () => {
    const folder = workspace("models");
    const result = await evals("--workspace", folder, "--only", "1", "--model", "m1,m2", "--json");
    const record = JSON.parse(await readFile(join(folder, "iteration-1", "iteration.json"), "utf8"));
    expect(record.lanes.map((l: { agent: string }) => l.agent)).toEqual(["claude-code", "claude-code"]);
    expect(JSON.parse(result.stdout).agents.map((a: { agent: string }) => a.agent)).toEqual([
      "claude-code",
      "claude-code",
    ]);
  });

  it("keeps the runs' temporary workspaces with --keep-workspaces, and only then", async () => {
    const tmp = workspace("tmp");
    await mkdir(tmp);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await evals("--workspace", workspace("removed"), "--only", "1");
      expect(await readdir(tmp)).toEqual([]);
      await evals("--workspace", workspace("kept"), "--only", "1", "--keep-workspaces");
      expect(await readdir(tmp)).toEqual([expect.stringMatching(/^skillgym-run\./)]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it("runs the suite --evals names, and refuses a --project-root that is not there", async () => {
    const one = join(at.skill, "evals", "one-eval.json");
    const parsed = JSON.parse(await readFile(join(at.skill, "evals", "evals.json"), "utf8"));
    await writeFile(one, JSON.stringify({ ...parsed, evals: parsed.evals.slice(0, 1) }));
    const folder = workspace("one");
    const plan = await evals("--workspace", folder, "--dry-run", "--evals", one);
    expect(plan.stdout).toContain("  eval runs: 0 of 2 served by the store, 2 to run;");
    const nowhere = join(at.dir, "nowhere");
    const refused = await evals("--workspace", folder, "--project-root", nowhere);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`skillgym: Project root not found: ${nowhere}\n`);
  });

  // `skillgym eval` pressed Ctrl-C on: its exit code, stderr, and what it printed and showed as the live status.
  async function cancelled(folder: string, ...flags: string[]) {
    const io = captureIo();
    const shown: string[] = [];
    const args = ["eval", at.skill, "--simulate", "--agent-bin", at.binary, "--workspace", workspace(folder)];
    const code = await interrupted(() =>
      main([...args, ...flags], {
        ...io,
        out: (text) => {
          shown.push(`out ${text}`);
          io.out(text);
        },
        status: (line) => shown.push(line ? "status" : "cleared"),
      }),
    );
    return { code, stderr: io.stderr(), shown };
  }

  it("says it is cancelling on Ctrl-C, exit 130, having cleared the live status before the summary", async () => {
    const result = await cancelled("cancelled");
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n");
    const summary = result.shown.findIndex((s) => s.startsWith("out "));
    expect(result.shown.slice(0, summary).at(-1)).toBe("cleared");
    // Several models' runs cancelled: no live status is left behind either.
    const models = await cancelled("cancelled-models", "--only", "1", "--model", "m1,m2");
    expect(models.code).toBe(130);
    expect(models.shown.filter((s) => !s.startsWith("out ")).at(-1)).toBe("cleared");
  });
});

// A script standing in for the agent's binary.
async function agentScript(name: string, body: string): Promise<string> {
  const path = join(at.dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

describe("skillgym eval when the agent or the judge fails", () => {
  it("exits 3 when no run could start the agent or log in, counting only the runs made now", async () => {
    const listening = process.listenerCount("SIGINT");
    const refused = await agentScript("refused.sh", "echo 'Invalid API key' >&2\nexit 1");
    const broken = await agentScript("broken.sh", "exit 1");
    // The agent starts only where the skill is installed: the runs with the skill.
    const halfway = await agentScript(
      "halfway.sh",
      `[ -d .claude/skills ] && exec "${at.binary}" "$@"\nexit 1`,
    );
    const one = ["--only", "1", "--no-grade"];
    const loggedOut = await evals("--workspace", workspace("logged-out"), ...one, "--agent-bin", refused);
    expect(loggedOut.code).toBe(3);
    expect(loggedOut.stderr).toContain("with_skill run-1: auth_error: Invalid API key (");
    const crashed = await evals("--workspace", workspace("crashed"), ...one, "--agent-bin", broken);
    expect(crashed.code).toBe(3);
    expect(crashed.stderr).toContain(
      "with_skill run-1: crash: the agent exited with code 1 without a result (",
    );
    const some = await evals("--workspace", workspace("halfway"), ...one, "--agent-bin", halfway);
    expect(some.code).toBe(0);
    expect(some.stdout).toMatch(/^done: 1\/2 runs finished, 1 errors, /);
    // Resumed: the run finished earlier is not counted, the one that crashed now is.
    const resumed = workspace("resumed-crash");
    expect((await evals("--workspace", resumed, ...one)).code).toBe(0);
    const again = await evals(
      "--workspace",
      resumed,
      ...one,
      "--runs",
      "2",
      "--resume",
      "--agent-bin",
      broken,
    );
    expect(again.code).toBe(3);
    // The command leaves no Ctrl-C handler behind.
    expect(process.listenerCount("SIGINT")).toBe(listening);
  });

  it("refuses a judge it cannot have before any run starts, when a run needs one", async () => {
    const noModel = ["--judge", "openai"];
    const refused = await evals("--workspace", workspace("no-judge"), "--only", "1", ...noModel);
    expect(refused).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "skillgym: the openai judge needs a model\n" +
        "  fix: pass --judge-model, e.g. --judge-model gpt-4.1 or the name your local server gives its model\n",
    });
    // The whole suite: one of its evals has no expectations, the others have.
    const mixed = await evals("--workspace", workspace("no-judge-mixed"), ...noModel);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).not.toContain("writing");
    // No grading, or no expectation to grade: no judge is needed.
    expect(
      (await evals("--workspace", workspace("ungraded"), "--only", "1", "--no-grade", ...noModel)).code,
    ).toBe(0);
    const parsed = JSON.parse(await readFile(join(at.skill, "evals", "evals.json"), "utf8"));
    const checksOnly = join(at.skill, "evals", "checks-only.json");
    await writeFile(checksOnly, JSON.stringify({ ...parsed, evals: parsed.evals.slice(2) }));
    const checked = await evals("--workspace", workspace("checks-only"), "--evals", checksOnly, ...noModel);
    expect(checked.code).toBe(0);
  });

  it("names each run whose grading failed, and each run graded late on --resume", async () => {
    // The agent starts, the agent judge (the same binary) fails: a grader's prompt names the expectations.
    const judgeFails = await agentScript(
      "no-judge.sh",
      `case "$*" in *xpectation*) echo 'the judge broke down' >&2; exit 1;; esac\nexec "${at.binary}" "$@"`,
    );
    const folder = workspace("judge-down");
    const failed = await evals(
      "--workspace",
      folder,
      "--only",
      "1",
      "--judge",
      "claude-code",
      "--agent-bin",
      judgeFails,
    );
    expect(failed.stderr).toContain(
      `  grading failed for ${join(folder, "iteration-1", "eval-basic", "with_skill", "run-1")}: ` +
        "Claude Code (the judge) failed: the agent exited with code 1 without a result: the judge broke down\n",
    );
    const later = workspace("graded-later");
    await evals("--workspace", later, "--only", "1", "--no-grade");
    const resumed = await evals("--workspace", later, "--only", "1", "--resume");
    expect(resumed.stderr).toContain(
      `  graded ${join(later, "iteration-1", "eval-basic", "with_skill", "run-1")} (its grading had not finished)\n`,
    );
  });
});
