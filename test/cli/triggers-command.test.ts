import { access, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { cli, MISSING_PATH_REFUSALS, useReleaseNotes } from "./command-fixture.js";
import { interrupted } from "./interrupted.js";

// `skillgym triggers` in this process on a copy of examples/release-notes with two trigger queries, on the double.
const { at, workspace, command: triggers } = useReleaseNotes("triggers");

const QUERY_1 =
  "Write release notes for v2.3.0 from the commits since the last tag; I pasted them into commits.txt";

describe("skillgym triggers", () => {
  it("prints each query's rate and verdict, the summary and where trigger-results.json is", async () => {
    const folder = workspace("text");
    const result = await triggers("--workspace", folder, "--runs", "1");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(`  pass  should     trigger   1/1  ${QUERY_1.slice(0, 70)}`);
    expect(lines[1]).toBe(
      "  pass  should not trigger   0/1  Review this pull request description and suggest a clearer title",
    );
    expect(lines[2]).toBe(
      "2/2 queries passed, 0 failed, 0 errored; precision 100%, recall 100%, F1 100%, accuracy 100% (simulated)",
    );
    expect(lines[3]).toBe(`  ${join(folder, "iteration-1", "triggers", "trigger-results.json")}`);
    expect(result.stderr).toContain(`writing ${join(folder, "iteration-1", "triggers")}: 2 runs`);
  });

  it("prints trigger-results.json with --json, with the flags' runs, threshold and description", async () => {
    const folder = workspace("json");
    const result = await triggers(
      "--workspace",
      folder,
      "--json",
      "--runs",
      "2",
      "--all-runs",
      "--threshold",
      "0.4",
      "--description",
      "Formats tables.",
    );
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({
      skill_name: "release-notes",
      description: "Formats tables.",
      threshold: 0.4,
      runs_per_query: 2,
      all_runs: true,
      simulated: true,
      summary: { total: 2, passed: 1, failed: 1 },
    });
    expect(parsed.results.map((r: { runs: number }) => r.runs)).toEqual([2, 2]);
  });

  it("says what the store serves with --dry-run: three runs a query by default", async () => {
    const folder = workspace("dry");
    expect(await triggers("--workspace", folder, "--dry-run")).toEqual({
      code: 0,
      stdout:
        `result store: ${join(folder, ".skillgym-cache")}\n` +
        "  trigger runs: 0 of 6 served by the store, at most 6 to run\n" +
        "the rest costs about $0.00 (the store saves about $0.00)\n" +
        "nothing was started\n",
      stderr: "",
    });
  });

  it("refuses --screen replay with several models", async () => {
    const result = await triggers("--screen", "replay", "--model", "a,b");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "skillgym: --screen replay takes one model at a time\n" +
        "  fix: run triggers once per --model with --screen replay, or leave --screen out\n",
    );
  });
});

describe("skillgym triggers with several models", () => {
  it("runs each model's trigger runs, as many as --runs asks, into one iteration with no evals", async () => {
    const folder = workspace("models");
    const result = await triggers("--workspace", folder, "--model", "m1,m2", "--runs", "2");
    expect(result.code, result.stderr).toBe(0);
    const root = join(folder, "iteration-1");
    const record = JSON.parse(await readFile(join(root, "iteration.json"), "utf8"));
    expect(record.request).toEqual({
      evals: [],
      runs_per_configuration: 1,
      baseline: "none",
      trigger_queries: 2,
      trigger_runs: 2,
    });
    expect(record.lanes).toEqual([
      { agent: "claude-code", model: "m1", dir: "m1" },
      { agent: "claude-code", model: "m2", dir: "m2" },
    ]);
    for (const model of ["m1", "m2"]) {
      const results = JSON.parse(
        await readFile(join(root, model, "triggers", "trigger-results.json"), "utf8"),
      );
      expect(results.runs_per_query).toBe(2);
      expect((await readdir(join(root, model))).filter((f) => f.startsWith("eval-"))).toEqual([]);
    }
    const lines = result.stdout.split("\n");
    expect(lines[1]).toBe(`models of ${root}:`);
    expect(lines.slice(3, 5).map((l) => l.split(/\s{2,}/).slice(1, 5))).toEqual([
      ["claude-code · m1", "n/a", "none", "n/a"],
      ["claude-code · m2", "n/a", "none", "n/a"],
    ]);
  });
});

describe("skillgym triggers' flags", () => {
  it("plans the replay screen per condition with --screen replay, and this shard's part as JSON", async () => {
    const folder = workspace("dry-flags");
    const screen = (...flags: string[]) =>
      triggers("--workspace", folder, "--dry-run", "--screen", "replay", ...flags);
    expect((await screen()).stdout).toBe(
      `result store: ${join(folder, ".skillgym-cache")}\n` +
        "  trigger runs: 0 of 6 served by the store, at most 6 to run\n" +
        "the rest costs about $0.00 (the store saves about $0.00)\n" +
        "with --screen replay: 1 capture run (one per key, unless stored), 6 replay requests, up to 6 agent runs (those replay leaves undecided)\n" +
        "nothing was started\n",
    );
    expect((await screen("--conditions", "clean,real")).stdout).toContain(
      "with --screen replay: 2 capture runs (one per key, unless stored), 12 replay requests, up to 12 agent runs",
    );
    const shard = await triggers("--workspace", folder, "--dry-run", "--shard", "1/2", "--json");
    expect(JSON.parse(shard.stdout)).toEqual({
      triggerRuns: {
        runs: 3,
        served: 0,
        toRun: 3,
        judgeServed: 0,
        judgeToRun: 0,
        workspace: folder,
        storeDir: join(folder, ".skillgym-cache"),
      },
      costUsd: 0,
      savedUsd: 0,
    });
  });

  it("plans the trigger queries --evals names", async () => {
    const one = join(at.skill, "evals", "one-trigger.json");
    const queries = JSON.parse(await readFile(join(at.skill, "evals", "triggers.json"), "utf8"));
    await writeFile(one, JSON.stringify(queries.slice(0, 1)));
    const result = await triggers("--workspace", workspace("dry-evals"), "--dry-run", "--evals", one);
    expect(result.stdout).toContain("  trigger runs: 0 of 3 served by the store, at most 3 to run\n");
  });

  for (const [flag, says] of MISSING_PATH_REFUSALS)
    it(`refuses a ${flag} that is not there, exit 2`, async () => {
      const nowhere = join(at.dir, "nowhere");
      const result = await triggers(flag, nowhere, "--runs", "1", "--workspace", workspace("refused"));
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(says.replace("NOWHERE", nowhere));
    });

  it("records the one model --model names", async () => {
    const result = await triggers(
      "--workspace",
      workspace("model"),
      "--runs",
      "1",
      "--model",
      "m1",
      "--json",
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ model: "m1", agent: { name: "claude-code" } });
  });

  it("says this shard's figures are partial, what replay decided, and that --fresh read no store", async () => {
    const folder = workspace("screened");
    const result = await triggers(
      ...["--workspace", folder, "--runs", "1", "--screen", "replay", "--fresh", "--shard", "1/1"],
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(
      "shard 1/1: partial figures, this shard's part of the plan only; `skillgym merge` every shard's folder for the whole result",
    );
    expect(lines.slice(4)).toEqual([
      `  ${join(folder, "iteration-1", "triggers", "trigger-results.json")}`,
      "replay decided 2 of 2 trigger runs, the agent 0; first request captured",
      "the result store was not read (--fresh): every run was made again and stored",
      "",
    ]);
  });

  it("says how many runs settled verdicts saved", async () => {
    const result = await triggers("--workspace", workspace("settled"), "--runs", "10");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nsettled verdicts saved \d+ of 20 trigger runs\n$/);
  });

  it("says it is cancelling on Ctrl-C and writes no results nor --junit, exit 130, and stops listening for Ctrl-C", async () => {
    const junit = join(workspace("cancelled"), "junit.xml");
    const listening = () => [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
    const before = listening();
    const result = await interrupted(() =>
      triggers("--workspace", workspace("cancelled"), "--runs", "1", "--junit", junit),
    );
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n");
    expect(result.stdout).toContain("  (cancelled; not written)\n");
    await expect(access(junit)).rejects.toThrow();
    expect(listening()).toEqual(before);
  });

  it("writes the JUnit report --junit names", async () => {
    const junit = join(workspace("junit"), "junit.xml");
    const result = await triggers("--workspace", workspace("junit"), "--runs", "1", "--junit", junit);
    expect(result.code).toBe(0);
    expect(await readFile(junit, "utf8")).toContain("release-notes");
  });

  it("prices a real agent's runs with --dry-run", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-test-not-a-key");
    try {
      const folder = workspace("dry-real");
      const result = await cli([
        "triggers",
        at.skill,
        "--agent-bin",
        at.binary,
        "--workspace",
        folder,
        "--dry-run",
      ]);
      expect(result).toEqual({
        code: 0,
        stdout:
          `result store: ${join(folder, ".skillgym-cache")}\n` +
          "  trigger runs: 0 of 6 served by the store, at most 6 to run\n" +
          "the rest costs about $0.30 (the store saves about $0.00)\n" +
          "nothing was started\n",
        stderr: "",
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("says how often 429s lowered the concurrency, and clears the live status before the results", async () => {
    const script = join(at.dir, "busy-sim-script.json");
    await writeFile(script, JSON.stringify({ rules: [{ fault: { status: 429, sessions: 1 } }] }));
    // Ctrl-C while the busy run waits for its retry: the run ends with the 429 it got. One run at a time: no other
    // run's success can raise the concurrency back meanwhile.
    const { stdout, said } = await onTerminal("retry query", [
      ...["--sim-script", script, "--workspace", workspace("busy"), "--runs", "1", "--concurrency", "1"],
    ]);
    expect(stdout).toContain(
      "  (cancelled; not written)\nrate limited (trigger runs): 1 429 answers; concurrency lowered 0 times, down to 1 of 1, ended at 1\n",
    );
    expect(said.slice(said.indexOf("out") - 1)[0]).toBe("no status");
  });

  it("clears the live status when several models' runs are cancelled", async () => {
    const { said } = await onTerminal("writing", [
      ...["--workspace", workspace("models-cancelled"), "--model", "m1,m2", "--runs", "2"],
    ]);
    expect(said).toContain("status");
    expect(said.at(-1)).toBe("no status");
  });
});

// `skillgym triggers <skill> --simulate <args>` with stderr on a terminal: what it printed to stdout, and in what order
// it printed and showed or removed the live status; Ctrl-C is pressed once a stderr line says `interruptAt`.
async function onTerminal(interruptAt: string, args: string[]) {
  const said: string[] = [];
  let stdout = "";
  const before = process.listeners("SIGINT");
  const io: Io = {
    out: (text) => {
      said.push("out");
      stdout += text;
    },
    err: (text) => {
      if (text.includes(interruptAt))
        for (const listener of process.listeners("SIGINT").filter((l) => !before.includes(l)))
          listener("SIGINT");
    },
    setExitCode: () => {},
    exitCode: () => 0,
    isTTY: false,
    status: (render) => said.push(render ? "status" : "no status"),
    liveStatus: true,
  };
  await main(["triggers", at.skill, "--simulate", "--agent-bin", at.binary, ...args], io);
  return { stdout, said };
}

describe("skillgym help triggers", () => {
  it("describes its argument", async () => {
    const help = await cli(["help", "triggers"]);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(" skill the skill folder ");
  });
});
