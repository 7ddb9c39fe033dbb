import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { skillgymHere, skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { scribeQueries } from "./scribe-queries.js";

// `skillgym optimize` screens its train runs by replay by default (the built CLI in this process, the agent the
// double, the simulator's word-overlap routing and describer): the description the loop chooses is the same.
// The runs compare six of the scribe queries (three should, three should not); the forecast of --dry-run all nine.
const queries = [0, 1, 2, 5, 6, 7].map((i) => scribeQueries[i]!);

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "scribe/SKILL.md": skillMd("scribe", "Tidies the layout of documents.", "Write RELEASE_NOTES.md."),
    "scribe/evals/triggers.json": JSON.stringify(queries),
    "scribe-nine/SKILL.md": skillMd("scribe", "Tidies the layout of documents.", "Write RELEASE_NOTES.md."),
    "scribe-nine/evals/triggers.json": JSON.stringify(scribeQueries),
  });
});
afterAll(() => cleanup?.());

const optimize = (workspace: string, ...extra: string[]) => optimizeSkill("scribe", workspace, ...extra);
const optimizeSkill = (skill: string, workspace: string, ...extra: string[]) =>
  skillgymHereOnDouble([
    "optimize",
    join(dir, skill),
    "--simulate",
    "--runs",
    "1",
    "--max-iterations",
    "2",
    "--workspace",
    join(dir, workspace),
    ...extra,
  ]);

async function resultsOf(workspace: string) {
  const folder = (await readdir(join(dir, workspace))).find((n) => n.startsWith("optimize-"))!;
  const root = join(dir, workspace, folder);
  return {
    root,
    results: OptimizeResults.parse(JSON.parse(await readFile(join(root, "results.json"), "utf8"))),
  };
}

async function runsOf(iterationDir: string) {
  const triggers = join(iterationDir, "triggers");
  const runs: (TriggerRun & { folder: string })[] = [];
  for (const query of (await readdir(triggers)).filter((n) => n.startsWith("query-")))
    for (const folder of await readdir(join(triggers, query)))
      runs.push({
        ...TriggerRun.parse(
          JSON.parse(await readFile(join(triggers, query, folder, "trigger.json"), "utf8")),
        ),
        folder,
      });
  return runs;
}

describe("skillgym optimize: replay on the train runs", () => {
  it("is on by default under --simulate: the same description chosen, test runs the agent's", async () => {
    const screened = await optimize("default");
    expect(screened.code, screened.stderr).toBe(0);
    expect(screened.stdout).toMatch(/replay decided \d+ of \d+ train runs; agent runs: \d+/);
    const plain = await optimize("none", "--screen", "none");
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/replay off \(--screen none\): the agent made every trigger run/);

    const { root, results } = await resultsOf("default");
    const { results: without } = await resultsOf("none");
    expect(results.screen).toEqual({ kind: "replay", asked: false });
    expect(without.screen).toEqual({ kind: "none", asked: true, off: "--screen none" });
    expect(results.best_description).toBe(without.best_description);
    expect(results.iterations.map((it) => [it.description, it.train?.score, it.test?.score])).toEqual(
      without.iterations.map((it) => [it.description, it.train?.score, it.test?.score]),
    );
    const evaluated = results.iterations.filter((it) => it.replay);
    expect(evaluated.length).toBeGreaterThan(0);
    expect(evaluated.reduce((n, it) => n + it.replay!.decided_by_replay, 0)).toBeGreaterThan(0);
    expect(without.iterations.every((it) => it.replay === undefined)).toBe(true);

    // Train runs carry how they were decided; every test run is the agent's.
    const test = new Set(results.split.test.map((q) => q.query));
    const runs = await runsOf(join(root, "iteration-0"));
    expect(runs.filter((r) => test.has(r.query)).every((r) => r.decided_by === "agent")).toBe(true);
    const replayed = runs.filter((r) => r.decided_by === "replay");
    expect(replayed.length).toBe(results.iterations[0]!.replay!.decided_by_replay);
    expect(replayed.every((r) => !test.has(r.query))).toBe(true);
  });

  it("with 3 runs replays each test query's first run too; every test verdict holds the agent's runs, the same as without", async () => {
    const three = ["--runs", "3", "--max-iterations", "1"];
    const screened = await optimize("three", ...three);
    expect(screened.code, screened.stderr).toBe(0);
    expect(screened.stdout).toMatch(
      /replay decided \d+ of \d+ train runs and \d+ of \d+ first test runs; .*every test verdict holds the agent's runs/,
    );
    const plain = await optimize("three-none", ...three, "--screen", "none");
    expect(plain.code, plain.stderr).toBe(0);
    const { root, results } = await resultsOf("three");
    const { results: without } = await resultsOf("three-none");
    expect(results.best_description).toBe(without.best_description);
    expect(results.iterations.map((it) => [it.description, it.train?.score, it.test?.score])).toEqual(
      without.iterations.map((it) => [it.description, it.train?.score, it.test?.score]),
    );

    const test = new Set(results.split.test.map((q) => q.query));
    const runs = await runsOf(join(root, "iteration-0"));
    const testRuns = runs.filter((r) => test.has(r.query));
    // Only a first run of a test query is replay's; each test query has an agent's run beside it.
    expect(testRuns.filter((r) => r.decided_by === "replay").every((r) => r.folder === "run-1")).toBe(true);
    for (const query of test)
      expect(
        testRuns.some((r) => r.query === query && r.decided_by === "agent"),
        query,
      ).toBe(true);
    const replay = results.iterations[0]!.replay!;
    expect(replay.test_first_runs).toBe(test.size);
    expect(replay.test_decided_by_replay).toBe(testRuns.filter((r) => r.decided_by === "replay").length);
    expect(replay.test_decided_by_replay).toBeGreaterThan(0);
  });

  it("--dry-run forecasts the captures, the replays and the agent runs at most; --screen none says it is off", async () => {
    const on = await optimizeSkill("scribe-nine", "dry", "--dry-run");
    expect(on.code, on.stderr).toBe(0);
    // 3 evaluations at most (the original and 2 proposals) × 9 queries: 5 train, 4 test.
    expect(on.stdout).toMatch(
      /replay on the train runs: 3 capture runs \(one per description, unless stored\), 15 replay requests, up to 27 agent runs/,
    );
    const off = await optimizeSkill("scribe-nine", "dry", "--dry-run", "--screen", "none");
    expect(off.stdout).toMatch(/replay off \(--screen none\): every trigger run is an agent run/);
  });

  it("refuses --screen replay for an agent without replay (exit 2), and --screen-verify with --screen none", async () => {
    const other = await skillgymHere([
      "optimize",
      join(dir, "scribe"),
      "--simulate",
      "--agent",
      "opencode",
      "--screen",
      "replay",
      "--workspace",
      join(dir, "opencode"),
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--screen replay is not available with opencode yet/);
    await expect(readdir(join(dir, "opencode"))).rejects.toThrow(/ENOENT/);
    const both = await optimize("both", "--screen", "none", "--screen-verify", "10");
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--screen-verify needs replay, and --screen none turns it off/);
  });
});
