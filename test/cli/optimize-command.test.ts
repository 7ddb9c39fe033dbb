import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executableDouble } from "../agent-double/index.js";
import { tempDir } from "../e2e/helpers.js";
import { smallExample } from "../e2e/small-example.js";
import { cli } from "./command-fixture.js";

// `skillgym optimize` run in this process through the CLI's own `main`, on a copy of examples/release-notes keeping
// three trigger queries (two should trigger, one should not), with the test double as the agent under --simulate.

let dir: string;
let cleanup: () => Promise<void>;
let skill: string;
let binary: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  skill = await smallExample(dir, "release-notes", [0, 1, 19]);
  binary = await executableDouble(dir);
});
afterAll(() => cleanup());

const optimize = (workspace: string, ...flags: string[]) =>
  cli([
    "optimize",
    skill,
    "--simulate",
    "--agent-bin",
    binary,
    "--workspace",
    join(dir, workspace),
    ...flags,
  ]);

const description =
  "Turns a plain commit log with conventional-commit prefixes (feat, fix, chore...) into RELEASE_NOTES.md with " +
  "Features and Fixes sections. Use when the user asks to write, draft or generate release notes or a changelog " +
  "entry from a list of commits.";

describe("skillgym optimize --dry-run", () => {
  it("prints the split, the estimate, the wall time and the replay plan, and starts nothing", async () => {
    expect(await optimize("planned", "--dry-run", "--runs", "1", "--max-iterations", "1")).toEqual({
      code: 0,
      stdout:
        "plan for release-notes: 2 train queries, 1 test queries (held out)\n" +
        "up to 2 evaluations (the original + 1 proposals) × 3 queries × 1 runs = 6 trigger runs, plus up to 1 improver calls (twice that with re-asks)\n" +
        "cost $0 (simulated)\n" +
        "estimated wall time: about 7s at --concurrency 8 (4s per eval run, 3s per trigger run: defaults)\n" +
        "replay on the train runs: 2 capture runs (one per description, unless stored), 4 replay requests, up to 6 agent runs (the test runs, and the runs replay leaves undecided)\n" +
        "credentials: none needed (simulated)\n" +
        "nothing was started\n",
      stderr: "",
    });
  });

  it("prints the plan alone as JSON, replay turned off by --screen none", async () => {
    const result = await optimize(
      "planned",
      "--dry-run",
      "--json",
      "--runs",
      "1",
      "--max-iterations",
      "1",
      "--screen",
      "none",
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const plan = JSON.parse(result.stdout);
    expect(plan).toMatchObject({
      skill: "release-notes",
      screenOff: "--screen none",
      estimate: { evaluations: 2, queries: 3, runs: 1, triggerRuns: 6, improverCalls: 1, costUsd: 0 },
      concurrency: 8,
    });
    expect(plan.train.map((q: { should_trigger: boolean }) => q.should_trigger)).toEqual([true, false]);
    expect(plan.test).toHaveLength(1);
  });

  it("splits by --seed, and plans with the defaults and --concurrency", async () => {
    const result = await optimize("planned", "--dry-run", "--json", "--seed=-7", "--concurrency", "3");
    const plan = JSON.parse(result.stdout);
    expect(plan).toMatchObject({
      screen: { kind: "replay", capture_runs: 6, replay_requests: 42, agent_runs_up_to: 54 },
      screenTestFirstRuns: true,
      estimate: { evaluations: 6, queries: 3, runs: 3, triggerRuns: 54, improverCalls: 5 },
      concurrency: 3,
    });
    expect(plan.test.map((q: { query: string }) => q.query)).toEqual([
      "can you turn this git log into a changelog entry? the feat/fix prefixes are already there",
    ]);
    const seeded = JSON.parse((await optimize("planned", "--dry-run", "--json")).stdout);
    expect(seeded.test.map((q: { query: string }) => q.query)).toEqual([
      "Write release notes for v2.3.0 from the commits since the last tag; I pasted them into commits.txt",
    ]);
  });

  it("takes a whole number as --seed, nothing else", async () => {
    for (const seed of ["1.5", " ", "seven"])
      expect(await optimize("planned", "--dry-run", `--seed=${seed}`)).toEqual({
        code: 2,
        stdout: "",
        stderr: `error: option '--seed <n>' argument '${seed}' is invalid. expected a whole number\n(see \`skillgym optimize --help\`)\n`,
      });
  });
});

describe("skillgym optimize", () => {
  it("evaluates the original, prints the summary, and refuses to resume a finished optimization", async () => {
    const result = await optimize("ran", "--runs", "1", "--max-iterations", "1");
    expect(result.code).toBe(0);
    const folder = /^optimizing into (\S+) \[SIMULATED/.exec(result.stderr)?.[1] as string;
    expect(folder).toMatch(new RegExp(`^${join(dir, "ran")}/optimize-\\d{8}-\\d{6}$`));
    expect(result.stdout).toBe(
      "SIMULATED: skillgym sim stood in for the agent and the improver; these scores test the harness, not the description.\n" +
        "stopped: every train query passes after 1 iterations; cost $0.00\n" +
        `original (test 100%): ${description}\n` +
        `best, iteration 0 (test 100%, train 100%): ${description}\n` +
        "best vs original: +0.00 on test: no gain over the original (95% interval +0.00..+0.00 over 1 test queries)\n" +
        "replay decided 2 of 2 train runs; agent runs: 2 (1 trigger runs, 1 capture); test runs are the agent's\n" +
        "SKILL.md unchanged (use --apply to write the best description into it)\n" +
        `results: ${folder}/results.json\n` +
        `report:  ${folder}/report.html\n`,
    );
    expect(result.stderr).toContain(
      "\n  iteration 0: train 100% (2/2 passed), test 100% (1/1 passed); replay decided 2 of 2 train runs\n",
    );
    expect(await optimize("ran", "--resume", folder)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `skillgym: --resume: ${folder}/results.json is already complete (train_perfect); nothing to resume\n` +
        "  fix: start a new optimization without --resume\n",
    });
  });

  it("prints results.json with --json, with the settings asked for", async () => {
    const result = await optimize(
      "json",
      "--json",
      "--runs",
      "1",
      "--max-iterations",
      "0",
      "--holdout",
      "0.5",
      "--threshold",
      "0.6",
      "--seed",
      "3",
      "--screen",
      "none",
    );
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    const folder = /^optimizing into (\S+) \[SIMULATED/.exec(result.stderr)?.[1] as string;
    expect(printed).toEqual(JSON.parse(await readFile(join(folder, "results.json"), "utf8")));
    expect(printed.settings).toEqual({
      max_iterations: 0,
      holdout: 0.5,
      runs_per_query: 1,
      threshold: 0.6,
      seed: 3,
      patience: 2,
      improver_backend: "sim",
      improver_model: "skillgym-sim",
    });
    expect([printed.status, printed.simulated, printed.screen]).toEqual([
      "complete",
      true,
      { kind: "none", asked: true, off: "--screen none" },
    ]);
  });
});
