import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { judgeBackends } from "../../src/judge/create.js";
import { executableDouble } from "../agent-double/index.js";
import { tempDir } from "../e2e/helpers.js";
import { smallExample } from "../e2e/small-example.js";
import { cli, MISSING_PATH_REFUSALS } from "./command-fixture.js";
import { interrupted } from "./interrupted.js";

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

const args = (workspace: string, ...flags: string[]) => [
  "optimize",
  skill,
  "--simulate",
  "--agent-bin",
  binary,
  "--workspace",
  join(dir, workspace),
  ...flags,
];
const optimize = (workspace: string, ...flags: string[]) => cli(args(workspace, ...flags));

// `optimize` with an Io that records, in order, what goes to stdout and each live status line (null: the status removed).
async function optimizeWatched(workspace: string, ...flags: string[]) {
  const io = captureIo();
  const shown: (string | null)[] = [];
  const printed: (string | null)[][] = [];
  const watched = {
    ...io,
    status: (line: (() => string) | undefined) => {
      shown.push(line ? line() : null);
    },
    out: (text: string) => {
      printed.push([...shown]);
      io.out(text);
    },
  };
  const listening = process.listeners("SIGINT").length;
  const code = await main(args(workspace, ...flags), watched);
  // Ctrl-C is the shell's again once the command has returned.
  expect(process.listeners("SIGINT")).toHaveLength(listening);
  const folder = /^optimizing into (\S+) \[SIMULATED/m.exec(io.stderr())?.[1] as string;
  return { code, stdout: io.stdout(), stderr: io.stderr(), shown, printed, folder };
}

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

  it("plans the trigger queries of the suite --evals names", async () => {
    const all = JSON.parse(await readFile(join(skill, "evals", "triggers.json"), "utf8"));
    const two = join(skill, "evals", "two-triggers.json");
    await writeFile(two, JSON.stringify(all.slice(0, 2)));
    const result = await optimize("planned", "--dry-run", "--evals", two);
    expect(result.stdout.split("\n")[0]).toBe(
      "plan for release-notes: 1 train queries, 1 test queries (held out)",
    );
  });

  for (const [flag, says] of MISSING_PATH_REFUSALS.filter(([flag]) => flag !== "--with-skills"))
    it(`refuses a ${flag} that is not there, exit 2`, async () => {
      const nowhere = join(dir, "nowhere");
      const result = await optimize("planned", "--dry-run", flag, nowhere);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(says.replace("NOWHERE", nowhere));
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

describe("skillgym optimize --dry-run of a real run", () => {
  // The agent's login as a real run would look for it: only the environment given, and a home without logins.
  async function dryRun(env: Record<string, string>, ...flags: string[]) {
    const saved = { ...process.env };
    for (const key of Object.keys(process.env))
      if (/^(ANTHROPIC_|CLAUDE_|OPENAI_)/.test(key)) delete process.env[key];
    const home = join(dir, "empty-home");
    await mkdir(home, { recursive: true });
    Object.assign(process.env, { HOME: home }, env);
    try {
      return await cli([
        "optimize",
        skill,
        "--agent-bin",
        binary,
        "--workspace",
        join(dir, "real"),
        "--dry-run",
        ...flags,
      ]);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  }

  it("estimates the cost against --max-cost, and checks the agent's login and the improver the flags name", async () => {
    const improver = ["--improver", "openai", "--improver-model", "improver-1"];
    const local = ["--improver-base-url", "http://127.0.0.1:9/v1"];
    const result = await dryRun(
      { ANTHROPIC_API_KEY: "sk-test-not-a-key" },
      ...improver,
      ...local,
      "--max-cost",
      "3",
    );
    expect(result).toEqual({
      code: 0,
      stdout:
        "plan for release-notes: 2 train queries, 1 test queries (held out)\n" +
        "up to 6 evaluations (the original + 5 proposals) × 3 queries × 3 runs = 54 trigger runs, plus up to 5 improver calls (twice that with re-asks)\n" +
        "estimated cost at most about $2.95 ($0.05 per trigger run, $0.05 per improver call: rough defaults (no earlier real optimization in this workspace)); --max-cost $3.00\n" +
        "estimated wall time: about 7m40s at --concurrency 8 (2m00s per eval run, 30s per trigger run: defaults)\n" +
        "replay on the train runs and each test query's first run: 6 capture runs (one per description, unless stored), 42 replay requests, up to 54 agent runs (the test runs, and the runs replay leaves undecided)\n" +
        "credentials: Claude Code logs in with ANTHROPIC_API_KEY; improver (openai): ready\n" +
        "nothing was started\n",
      stderr: "",
    });
    // OpenAI's own API, which the improver would call without --improver-base-url, needs a key.
    const unkeyed = await dryRun({ ANTHROPIC_API_KEY: "sk-test-not-a-key" }, ...improver);
    expect(unkeyed.code).toBe(3);
    expect(unkeyed.stderr).toContain(
      "skillgym: the openai judge needs OPENAI_API_KEY for https://api.openai.com/v1\n",
    );
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

  it("passes --model, --max-cost, --improver and --apply on, and shows the spending against --max-cost", async () => {
    const result = await optimizeWatched(
      "limited",
      ...["--runs", "1", "--max-iterations", "1", "--model", "m1", "--max-cost", "5"],
      ...["--improver", "openai", "--improver-model", "improver-1", "--apply"],
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("\ncost $0 (simulated); --max-cost $5.00\n");
    const statuses = result.shown.filter((line) => line !== null);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((line) => line.endsWith(" of $5.00 (--max-cost)"))).toBe(true);
    expect(result.stdout).toContain(
      `\nnot applied: the original description scored best on test; ${join(skill, "SKILL.md")} is unchanged\n`,
    );
    const written = JSON.parse(await readFile(join(result.folder, "results.json"), "utf8"));
    expect(written.settings).toMatchObject({
      model: "m1",
      max_cost_usd: 5,
      improver_backend: "openai",
      improver_model: "improver-1",
    });
  });

  it("says it is cancelling on Ctrl-C and exits 130; --resume takes the flags given again", async () => {
    const result = await interrupted(() =>
      optimizeWatched("cancelled", "--runs", "1", "--max-iterations", "1"),
    );
    expect(result.code).toBe(130);
    expect(
      result.stderr.startsWith(
        "\ncancelling: results so far are kept (continue with --resume); Ctrl-C again to quit now\n",
      ),
    ).toBe(true);
    expect(result.stdout).toContain("\nstopped: cancelled after 1 iterations; cost $0.00\n");
    // The live status of the runs left undone is gone before the summary is printed.
    expect(result.shown.length).toBeGreaterThan(1);
    expect(result.printed.every((shown) => shown.at(-1) === null)).toBe(true);

    // --runs given again is held against results.json; the rest comes from it.
    const changed = await optimize("cancelled", "--resume", result.folder, "--runs", "2");
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain(
      `: it was started with other inputs\n  --runs: 1 in results.json, 2 now\n`,
    );
    const resumed = await optimize("cancelled", "--resume", result.folder);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("\nstopped: every train query passes after 1 iterations; cost $0.00\n");
  });

  it("describes its argument in its help", async () => {
    const help = await cli(["help", "optimize"]);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(" skill the skill folder ");
    // And which improvers --improver takes.
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      ` --improver <backend> who proposes descriptions: ${judgeBackends.join(", ")} `,
    );
  });
});
