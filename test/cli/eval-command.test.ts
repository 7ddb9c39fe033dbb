import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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

  it("says it is cancelling on Ctrl-C, exit 130", async () => {
    const result = await interrupted(() => evals("--workspace", workspace("cancelled"), "--only", "1"));
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n");
  });
});
