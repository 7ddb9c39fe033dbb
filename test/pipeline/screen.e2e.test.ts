import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { skillgymHere, skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// `skillgym run --screen replay` as a user runs it (the built CLI in this process, the agent the double): the trigger
// half is screened, the evals are not.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd("haiku", "Writes a haiku. Use when the user asks for a haiku.", "Write one."),
    "haiku/evals/evals.json": JSON.stringify({
      skill_name: "haiku",
      evals: [{ id: "rain", prompt: "poem: a haiku about rain", expectations: [] }],
    }),
    "haiku/evals/triggers.json": JSON.stringify([
      { query: "first: write a haiku", should_trigger: true },
      { query: "later: a haiku on the files here", should_trigger: true },
      { query: "never: what is 2+2", should_trigger: false },
    ]),
    "haiku/evals/sim-script.json": JSON.stringify({
      rules: [
        { match: "^poem:", steps: [{ text: "Rain on the tin roof." }] },
        { match: "^first:", skill: "~haiku-sg-" },
        { match: "^later:", skill: "~haiku-sg-", before: [{ bash: "true" }] },
        { skill: "none", without_skill: [{ text: "Sure." }] },
      ],
    }),
  });
});
afterAll(() => cleanup?.());

const run = (workspace: string, ...extra: string[]) => [
  "run",
  join(dir, "haiku"),
  "--simulate",
  "--runs",
  "1",
  "--baseline",
  "none",
  "--trigger-runs",
  "2",
  "--all-runs",
  "--no-grade",
  "--workspace",
  join(dir, workspace),
  ...extra,
];

async function triggerRuns(iteration: string): Promise<TriggerRun[]> {
  const triggers = join(iteration, "triggers");
  const runs: TriggerRun[] = [];
  for (const query of (await readdir(triggers)).filter((n) => n.startsWith("query-")))
    for (const r of await readdir(join(triggers, query)))
      runs.push(TriggerRun.parse(await readJson(join(triggers, query, r, "trigger.json"))));
  return runs;
}

describe("skillgym run --screen replay", () => {
  it("decides the first-turn trigger runs by replay, gives the rest to the agent, and keeps the verdicts", async () => {
    const plain = await skillgymHereOnDouble(run("agents"));
    expect(plain.code, plain.stderr).toBe(0);
    const screened = await skillgymHereOnDouble(run("replay", "--screen", "replay"));
    expect(screened.code, screened.stderr).toBe(0);
    expect(screened.stdout).toMatch(
      /replay decided 4 of 6 trigger runs, the agent 2; first request captured/,
    );
    const written = await readJson(join(dir, "replay", "iteration-1", "triggers", "trigger-results.json"));
    const before = await readJson(join(dir, "agents", "iteration-1", "triggers", "trigger-results.json"));
    expect(written.screen).toMatchObject({ kind: "replay", decided_by_replay: 4, decided_by_agent: 2 });
    expect(written.results).toEqual(before.results);
    const runs = await triggerRuns(join(dir, "replay", "iteration-1"));
    const by = (prefix: string) => runs.filter((r) => r.query.startsWith(prefix)).map((r) => r.decided_by);
    expect(by("first:")).toEqual(["replay", "replay"]);
    expect(by("later:")).toEqual(["agent", "agent"]);
    expect(by("never:")).toEqual(["replay", "replay"]);
    // The eval run is the agent's, as without --screen.
    const json = await skillgymHereOnDouble(run("json", "--screen", "replay", "--json"));
    expect(JSON.parse(json.stdout).screen).toMatchObject({ decided_by_replay: 4, decided_by_agent: 2 });
  });

  it("forecasts the capture, the replays and the agent runs at most in --dry-run", async () => {
    const result = await skillgymHereOnDouble(run("dry", "--screen", "replay", "--dry-run"));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /with --screen replay: 1 capture run \(one per key, unless stored\), 6 replay requests, up to 6 agent runs/,
    );
  });

  it("refuses an agent without replay with exit 2 before the evals start, and several models", async () => {
    const other = await skillgymHere(run("opencode", "--agent", "opencode", "--screen", "replay"));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--screen replay is not available with opencode yet/);
    expect(await readdir(join(dir, "opencode")).catch(() => [])).not.toContain("iteration-1");
    const models = await skillgymHereOnDouble(run("models", "--screen", "replay", "--model", "a,b"));
    expect(models.code).toBe(2);
    expect(models.stderr).toMatch(/--screen replay takes one agent and one model at a time/);
    const alone = await skillgymHereOnDouble(run("alone", "--screen-verify", "10"));
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--screen-verify needs --screen replay/);
  });
});
