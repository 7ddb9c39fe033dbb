import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillgymHere, skillgymHereOnDouble } from "../../cli/cli-in-process.js";
import { readJson, tempDir, writeTree } from "../../e2e/helpers.js";
import { HAIKU_SUITE } from "./haiku-suite.js";

// `skillgym triggers --screen replay` as a user runs it (the built CLI in this process, the agent the double).
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, HAIKU_SUITE);
});
afterAll(() => cleanup?.());

const triggers = (...extra: string[]) => [
  "triggers",
  join(dir, "haiku"),
  "--simulate",
  "--runs",
  "1",
  "--workspace",
  join(dir, "ws"),
  ...extra,
];

describe("skillgym triggers --screen replay", () => {
  it("says how many runs replay decided and writes it into trigger-results.json", async () => {
    const result = await skillgymHereOnDouble(triggers("--screen", "replay"));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/replay decided 2 of 3 trigger runs, the agent 1; first request captured/);
    const written = await readJson(join(dir, "ws", "iteration-1", "triggers", "trigger-results.json"));
    expect(written.screen).toMatchObject({ kind: "replay", decided_by_replay: 2, decided_by_agent: 1 });
  });

  it.each(["opencode", "copilot"])(
    "refuses %s, which has no replay yet, with exit 2 before any run",
    async (agent) => {
      const result = await skillgymHere(
        triggers("--agent", agent, "--screen", "replay", "--workspace", join(dir, agent)),
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`--screen replay is not available with ${agent} yet`));
      expect(result.stderr).toMatch(/agents with replay: claude-code, .*gemini/);
    },
  );

  it("refuses --screen-verify without --screen, and a screen it does not know", async () => {
    const alone = await skillgymHereOnDouble(triggers("--screen-verify", "10"));
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--screen-verify needs --screen replay/);
    const models = await skillgymHereOnDouble(triggers("--screen", "replay", "--model", "a,b"));
    expect(models.code).toBe(2);
    expect(models.stderr).toMatch(/--screen replay takes one model at a time/);
    const unknown = await skillgymHereOnDouble(triggers("--screen", "guess"));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/expected "replay"/);
  });

  it("shows decided_by in the schemas of a run's trigger.json and of trigger-results.json", async () => {
    const run = await skillgymHere(["schema", "trigger-run"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).properties.decided_by.enum).toEqual(["replay", "agent"]);
    const results = await skillgymHere(["schema", "trigger-results"]);
    expect(JSON.parse(results.stdout).properties.screen.properties).toHaveProperty("decided_by_replay");
  });
});
