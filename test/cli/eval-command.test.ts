import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useReleaseNotes } from "./command-fixture.js";

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
