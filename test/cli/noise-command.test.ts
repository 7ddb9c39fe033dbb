import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { loadSimScript, startSim } from "../../src/sim/index.js";
import { cli, useReleaseNotes } from "./command-fixture.js";

// `skillgym noise` in this process on a copy of examples/release-notes, on the test double.
const { at, workspace, command: noise } = useReleaseNotes("noise");

// A suite of the example's evals with these ids, beside its evals.json (its files and sim-script.json).
async function suiteOf(name: string, ids: string[]): Promise<string> {
  const parsed = JSON.parse(await readFile(join(at.skill, "evals", "evals.json"), "utf8"));
  const file = join(at.skill, "evals", `${name}.json`);
  await writeFile(
    file,
    JSON.stringify({ ...parsed, evals: parsed.evals.filter((e: { id: string }) => ids.includes(e.id)) }),
  );
  return file;
}

describe("skillgym noise", () => {
  it("runs the skill against itself, prints the A/A spread and writes noise.json, closing its simulator", async () => {
    const folder = workspace("text");
    const result = await noise("--only", "1", "--runs", "2", "--workspace", folder);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "A/A spread: 0.00 (two identical arms, 2 runs each)\n" +
        "false calls at ±0.05: 0 of 1 evals would have been called helps or hurts\n" +
        `wrote ${join(folder, "noise.json")}: later verdicts in this workspace hold a lift against ±0.05\n`,
    );
    const written = JSON.parse(await readFile(join(folder, "noise.json"), "utf8"));
    expect(written).toMatchObject({ spread: 0, runs_per_arm: 2, effect_floor: 0.05, false_calls: 0 });
    expect(result.stderr).toContain(`writing ${join(folder, "noise", "iteration-1")}: 4 runs`);
  });

  it("prints noise.json with --json, held against the flag's effect floor", async () => {
    const folder = workspace("json");
    const result = await noise(
      "--only",
      "1",
      "--runs",
      "2",
      "--workspace",
      folder,
      "--json",
      "--effect-floor",
      "0.2",
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(await readFile(join(folder, "noise.json"), "utf8")));
    expect(JSON.parse(result.stdout).effect_floor).toBe(0.2);
    // The A/A benchmark is held against the flag's effect floor alone.
    const benchmark = JSON.parse(
      await readFile(join(folder, "noise", "iteration-1", "benchmark.json"), "utf8"),
    );
    expect(benchmark.statistics.verdict).toEqual({ verdict: "no effect", floor: 0.2 });
  });

  it("refuses --baseline, says when no eval had two graded runs in each arm, and that a --project-root is not there", async () => {
    const baseline = await noise("--baseline", "none");
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toBe(
      "skillgym: noise runs the skill against itself: --baseline does not apply\n  fix: leave out --baseline\n",
    );
    const once = await noise("--only", "1", "--runs", "1", "--workspace", workspace("once"));
    expect(once.code).toBe(2);
    expect(once.stderr).toContain("skillgym: no eval had two graded runs in both arms: no noise floor\n");
    expect(once.stderr).toContain("  fix: give the evals expectations or checks, and --runs 2 or more\n");
    const nowhere = join(at.dir, "nowhere");
    const rootless = await noise(
      "--only",
      "1",
      "--runs",
      "1",
      "--workspace",
      workspace("rootless"),
      "--project-root",
      nowhere,
    );
    expect(rootless.code).toBe(2);
    expect(rootless.stderr).toContain(
      `: crash: workspace setup failed: Project root not found: ${nowhere} (`,
    );
  });

  it("fails before any run when the judge the evals' expectations need cannot be made", async () => {
    expect(
      await noise("--only", "1", "--runs", "2", "--workspace", workspace("no-judge"), "--judge", "openai"),
    ).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "skillgym: the openai judge needs a model\n" +
        "  fix: pass --judge-model, e.g. --judge-model gpt-4.1 or the name your local server gives its model\n",
    });
  });

  it("makes no judge for the suite --evals names when its evals have checks alone, and runs --model", async () => {
    const checksOnly = await suiteOf("checks-only", ["fixes-only"]);
    const folder = workspace("checks-only");
    const result = await noise(
      "--evals",
      checksOnly,
      "--runs",
      "2",
      "--workspace",
      folder,
      "--judge",
      "openai",
      "--model",
      "m1",
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`writing ${join(folder, "noise", "iteration-1")}: 4 runs`);
    const record = await readFile(join(folder, "noise", "iteration-1", "iteration.json"), "utf8");
    expect(record).toContain('"m1"');
  });

  it("says which runs it could not grade, and counts only the evals graded in both arms", async () => {
    // A real run: the agent's API is a simulator of this test's own, the judge's API is not there.
    const sim = await startSim({ script: await loadSimScript(join(at.skill, "evals", "sim-script.json")) });
    const saved = { ...process.env };
    Object.assign(process.env, { ANTHROPIC_BASE_URL: sim.url, ANTHROPIC_API_KEY: "sk-test-not-a-key" });
    const folder = workspace("unreachable-judge");
    const judge = ["--judge", "openai", "--judge-model", "judge-1", "--judge-base-url", "http://127.0.0.1:9"];
    try {
      const result = await cli(
        ["noise", at.skill, "--agent-bin", at.binary, "--workspace", folder, "--runs", "2"].concat(
          ...judge,
          "--evals",
          await suiteOf("judged-and-checked", ["basic", "fixes-only"]),
        ),
      );
      expect(result.code).toBe(0);
      for (const arm of ["with_skill", "old_skill"])
        for (const run of ["run-1", "run-2"])
          expect(result.stderr).toContain(
            `\n  grading failed for ${join(folder, "noise", "iteration-1", "eval-basic", arm, run)}: the judge (judge-1 at http://127.0.0.1:9/chat/completions) failed: `,
          );
      expect(result.stdout.split("\n")[1]).toBe(
        "false calls at ±0.05: 0 of 1 evals would have been called helps or hurts",
      );
      const written = JSON.parse(await readFile(join(folder, "noise.json"), "utf8"));
      expect(written.evals.map((e: { verdict: string | null }) => e.verdict)).toEqual([null, "no effect"]);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      await sim.close();
    }
  });

  it("on Ctrl-C says it is cancelling, measures the runs finished, and gives Ctrl-C back", async () => {
    const io = captureIo();
    // In order: each live status line (null: the status removed) and "out" where stdout was written.
    const seen: (string | null)[] = [];
    const listening = process.listeners("SIGINT");
    const ctrlC = () => process.listeners("SIGINT").find((l) => !listening.includes(l))?.("SIGINT");
    const code = await main(
      ["noise", at.skill, "--simulate", "--agent-bin", at.binary, "--only", "1", "--runs", "3"].concat(
        ...["--concurrency", "1", "--workspace", workspace("cancelled")],
      ),
      {
        ...io,
        status: (line) => seen.push(line ? line() : null),
        out: (text) => {
          seen.push("out");
          io.out(text);
        },
        // Pressed once runs 1 and 2 of both arms are over, before the last two.
        err: (text) => {
          io.err(text);
          if (text.startsWith("[4/6] ")) ctrlC();
        },
      },
    );
    expect(code).toBe(0);
    expect(io.stderr()).toContain("\ncancelling: finished runs are kept\n");
    expect(io.stdout()).toContain("A/A spread: 0.00 (two identical arms, 3 runs each)\n");
    // The live status of the runs left is gone before the result is printed.
    expect(seen.filter((s) => s !== null && s !== "out").at(-1)).toMatch(/^eval runs 4\/6 done · /);
    expect(seen.slice(seen.indexOf("out") - 1)).toEqual([null, "out"]);
    expect(process.listeners("SIGINT")).toEqual(listening);
  });

  it("describes its argument in its help", async () => {
    const help = await cli(["help", "noise"]);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(" skill the skill folder ");
  });
});
