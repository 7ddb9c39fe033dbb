import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClaudeCodeAgent } from "../../../src/agents/index.js";
import { SimScript } from "../../../src/contracts/sim-script.js";
import { type SimLogEntry, startSim } from "../../../src/sim/index.js";
import { runTriggers, type TriggerOptions } from "../../../src/triggers/index.js";
import { replayMarker, withQuery } from "../../../src/triggers/replay/marker.js";
import { useSimDouble } from "../../agent-double/use-sim-double.js";
import { fastRetry, readJson, skillMd, writeTree } from "../../e2e/helpers.js";

// runTriggers with --screen replay in this process, the claude-code adapter on the test double, against one sim.
// "first:" loads the skill on the first turn, "later:" after a shell call, "never:" answers in text; "verify:"
// loads it through the agent but not through a replay (the `replayed` rule).
const script = SimScript.parse({
  rules: [
    { match: "^first:", skill: "~haiku-sg-" },
    { match: "^later:", skill: "~haiku-sg-", before: [{ bash: "true" }] },
    { match: "^verify:", replayed: true, skill: "none", without_skill: [{ text: "No." }] },
    { match: "^verify:", skill: "~haiku-sg-" },
    { match: "^refused:", replayed: true, fault: { status: 500 } },
    { match: "^refused:", skill: "~haiku-sg-" },
    { match: "^broken:", replayed: true, skill: "~haiku-sg-" },
    { match: "^broken:", fault: { status: 500 } },
    { match: "^lib:", skills: "^formatter$", skill: "~haiku-sg-", before: [{ bash: "true" }] },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

const QUERIES = [
  { query: 'first: write a haiku about "rain",\nplease', should_trigger: true },
  { query: "later: a haiku on the files here", should_trigger: true },
  { query: "never: what is 2+2", should_trigger: false },
];

const fx = useSimDouble(
  script,
  async (dir) => {
    const skill = skillMd("haiku", "Writes a haiku. Use when the user asks for a haiku.", "Write a haiku.");
    await writeTree(dir, {
      "haiku/SKILL.md": skill,
      "haiku/evals/triggers.json": JSON.stringify(QUERIES),
      "checked/haiku/SKILL.md": skill,
      "checked/haiku/evals/triggers.json": JSON.stringify([
        { query: "verify: a haiku please", should_trigger: true },
        { query: "first: a haiku now", should_trigger: true },
      ]),
      "broken/haiku/SKILL.md": skill,
      "broken/haiku/evals/triggers.json": JSON.stringify([
        { query: "broken: a haiku", should_trigger: true },
      ]),
      "refused/haiku/SKILL.md": skill,
      "refused/haiku/evals/triggers.json": JSON.stringify([
        { query: "refused: a haiku", should_trigger: true },
      ]),
    });
  },
  { logBodies: true },
);

function options(workspace: string, overrides: Partial<TriggerOptions> = {}): TriggerOptions {
  return {
    skillPath: join(fx.dir, "haiku"),
    workspace: join(fx.dir, workspace),
    runs: 2,
    threshold: 0.5,
    concurrency: 3,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    // Every query gets both runs, so the counts do not hang on which run settles a query first.
    allRuns: true,
    store: { dir: join(fx.dir, workspace, "cache") },
    screen: { kind: "replay" },
    createAgent: () => fx.agent(),
    ...overrides,
  };
}

const MARKER = new RegExp(`^${replayMarker("")}[0-9a-f]{16}$`);
const captures = (log: readonly SimLogEntry[]) => log.filter((e) => MARKER.test(e.prompt));
const replays = (log: readonly SimLogEntry[]) => log.filter((e) => e.headers?.["x-skillgym-replay"]);

async function storedCaptures(cache: string): Promise<Record<string, unknown>[]> {
  const root = join(cache, "v1", "replay-capture");
  const found: Record<string, unknown>[] = [];
  for (const prefix of await readdir(root))
    for (const key of await readdir(join(root, prefix)))
      found.push(await readJson(join(root, prefix, key, "run", "capture.json")));
  return found;
}

describe("--screen replay through Claude Code's adapter", () => {
  it("replays the captured request byte for byte but for the query, and gives the agent only the undecided runs", async () => {
    const from = fx.sim.log.length;
    const summary = await runTriggers(options("ws-bytes"));
    const log = fx.sim.log.slice(from);

    const [capture, ...more] = captures(log);
    expect(more).toEqual([]);
    const marker = capture!.prompt;
    const replayed = replays(log);
    expect(replayed.length).toBeGreaterThanOrEqual(QUERIES.length);
    for (const entry of replayed) {
      expect(entry.body).toBe(withQuery(capture!.body!, marker, entry.prompt));
      for (const header of ["user-agent", "anthropic-version", "content-type"])
        expect(entry.headers?.[header]).toBe(capture!.headers?.[header]);
      expect(entry.headers?.["x-claude-code-session-id"]).not.toBe(
        capture!.headers?.["x-claude-code-session-id"],
      );
    }
    // The query with quotes and a line break went in escaped: the sim read it back whole.
    expect(replayed.map((e) => e.prompt)).toContain(QUERIES[0]!.query);

    const [stored] = await storedCaptures(join(fx.dir, "ws-bytes", "cache"));
    expect(stored?.body).toBe(capture!.body);
    expect(stored?.marker).toBe(marker);
    expect(Object.keys(stored?.headers as object)).not.toContain("x-api-key");

    const decided = Object.fromEntries(summary.records.map((r) => [r.spec.query, r.record.decided_by]));
    expect(decided).toEqual({
      [QUERIES[0]!.query]: "replay",
      [QUERIES[1]!.query]: "agent",
      [QUERIES[2]!.query]: "replay",
    });
    expect(summary.results.results.map((r) => r.pass)).toEqual([true, true, true]);
    expect(summary.results.screen).toMatchObject({
      kind: "replay",
      decided_by_replay: 4,
      decided_by_agent: 2,
      captured: true,
    });
    const onDisk = await readJson(join(summary.iterationDir, "triggers", "query-1", "run-1", "trigger.json"));
    expect(onDisk).toMatchObject({ decided_by: "replay", triggered: true, model_requests: 1 });
  });

  it("does not capture again when nothing changed, and does when the description did", async () => {
    await runTriggers(options("ws-again"));
    let from = fx.sim.log.length;
    const again = await runTriggers(options("ws-again"));
    expect(captures(fx.sim.log.slice(from))).toEqual([]);
    expect(again.results.screen).toMatchObject({ captured: false });
    expect(again.records.filter((r) => r.record.decided_by === "replay").length).toBe(4);

    from = fx.sim.log.length;
    const other = await runTriggers(
      options("ws-again", { description: "Writes a haiku, any haiku at all." }),
    );
    expect(captures(fx.sim.log.slice(from)).length).toBe(1);
    expect(other.results.screen).toMatchObject({ captured: true });
  });

  it("without an API key says replay needs one and lets the agents make every run", async () => {
    const warnings: string[] = [];
    const from = fx.sim.log.length;
    // A subscription login only: the agent talks to the API (here the sim) and has no key to give a replay.
    const agent = () =>
      createClaudeCodeAgent({
        binary: fx.binary,
        env: {
          PATH: process.env.PATH,
          ANTHROPIC_BASE_URL: fx.sim.url,
          CLAUDE_CODE_OAUTH_TOKEN: "oauth-only",
        },
      });
    const summary = await runTriggers(
      options("ws-nokey", {
        createAgent: agent,
        screen: { kind: "replay", env: {} },
        reporter: { onWarning: (m) => warnings.push(m) },
      }),
    );
    expect(warnings).toEqual([expect.stringMatching(/needs an API key \(ANTHROPIC_API_KEY\)/)]);
    expect(replays(fx.sim.log.slice(from))).toEqual([]);
    expect(captures(fx.sim.log.slice(from))).toEqual([]);
    expect(summary.records.every((r) => r.record.decided_by === "agent")).toBe(true);
    expect(summary.results.screen).toMatchObject({
      decided_by_replay: 0,
      captured: false,
      off: expect.stringMatching(/API key/),
    });

    // With a key, the same agent's requests are replayed to the API it uses, with that key.
    const keyed = await runTriggers(
      options("ws-key", {
        createAgent: agent,
        screen: { kind: "replay", env: { ANTHROPIC_API_KEY: "sk-test-key" } },
      }),
    );
    const sent = replays(fx.sim.log.slice(from));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((e) => e.headers?.["x-api-key"] === "sk-test-key")).toBe(true);
    expect(keyed.results.screen?.decided_by_replay).toBe(4);
  });

  it("--screen-verify reports a disagreement and falls back to the agents below 95%", async () => {
    const warnings: string[] = [];
    const summary = await runTriggers(
      options("ws-verify", {
        skillPath: join(fx.dir, "checked", "haiku"),
        concurrency: 1,
        screen: { kind: "replay", verifyPercent: 100 },
        reporter: { onWarning: (m) => warnings.push(m) },
      }),
    );
    expect(warnings).toEqual([
      expect.stringMatching(/agreed with the agent on \d of \d checked runs, below 95%/),
    ]);
    expect(summary.results.screen?.verified).toMatchObject({ fell_back: true });
    expect(summary.results.screen?.verified?.agreed).toBeLessThan(
      summary.results.screen?.verified?.runs ?? 0,
    );
    // The agent's verdicts stand: "verify:" triggers through the agent, whatever the replay said.
    expect(summary.results.results.map((r) => r.pass)).toEqual([true, true]);
    expect(summary.records.every((r) => r.record.decided_by === "agent")).toBe(true);
    const checked = summary.records.filter((r) => r.record.replay_agreed === false);
    expect(checked.map((r) => r.spec.query)).toContain("verify: a haiku please");
  });

  it("--screen-verify falling back has the agents make again the runs replay decided before it", async () => {
    await writeTree(fx.dir, {
      "redo/haiku/SKILL.md": skillMd(
        "haiku",
        "Writes a haiku. Use when the user asks for a haiku.",
        "Haiku.",
      ),
      "redo/haiku/evals/triggers.json": JSON.stringify([
        { query: "first: a haiku now", should_trigger: true },
        { query: "verify: a haiku please", should_trigger: true },
        { query: "verify: one more haiku", should_trigger: true },
      ]),
    });
    const summary = await runTriggers(
      options("ws-redo", {
        skillPath: join(fx.dir, "redo", "haiku"),
        concurrency: 1,
        runs: 1,
        screen: { kind: "replay", verifyPercent: 50 },
      }),
    );
    expect(summary.results.screen?.verified).toMatchObject({ fell_back: true });
    // Replay said "verify:" does not trigger; every run, the agent's again, passes.
    expect(summary.records.map((r) => r.record.decided_by)).toEqual(["agent", "agent", "agent"]);
    expect(summary.results.results.map((r) => r.pass)).toEqual([true, true, true]);
  });

  it("--screen-verify counts the runs where replay and agent agree, triggered or not", async () => {
    const summary = await runTriggers(
      options("ws-agreeing", { concurrency: 1, screen: { kind: "replay", verifyPercent: 100 } }),
    );
    // "later:" is undecided on its first turn, so only "first:" (triggered) and "never:" (not) are checked.
    expect(summary.results.screen?.verified).toEqual({ runs: 4, agreed: 4, agreement: 1, fell_back: false });
  });

  it("--screen-verify leaves a checked run whose agent run failed out of the agreement", async () => {
    const summary = await runTriggers(
      options("ws-broken", {
        skillPath: join(fx.dir, "broken", "haiku"),
        screen: { kind: "replay", verifyPercent: 100 },
      }),
    );
    expect(summary.records.map((r) => r.record.decided_by)).toEqual(["agent", "agent"]);
    expect(summary.records.map((r) => "replay_agreed" in r.record)).toEqual([false, false]);
    expect(summary.results.screen?.verified).toStrictEqual({ runs: 0, agreed: 0, fell_back: false });
  });

  it("side by side, the clean room's results say how its runs were screened too", async () => {
    await writeTree(fx.dir, {
      "library/formatter/SKILL.md": skillMd("formatter", "Formats code.", "Run the formatter."),
      "sides/haiku/SKILL.md": skillMd(
        "haiku",
        "Writes a haiku. Use when the user asks for a haiku.",
        "Haiku.",
      ),
      "sides/haiku/evals/triggers.json": JSON.stringify([{ query: "lib: a haiku", should_trigger: false }]),
    });
    const summary = await runTriggers(
      options("ws-sides", {
        skillPath: join(fx.dir, "sides", "haiku"),
        runs: 1,
        installed: [join(fx.dir, "library")],
        conditions: { clean: true, real: true },
      }),
    );
    const clean = await readJson(join(summary.iterationDir, "triggers", "clean", "trigger-results.json"));
    // With the library installed the first turn runs a shell (the agent decides); without it, it answers in text.
    expect(summary.results.screen).toMatchObject({
      kind: "replay",
      decided_by_replay: 0,
      decided_by_agent: 1,
    });
    expect(clean.screen).toMatchObject({ kind: "replay", decided_by_replay: 1, decided_by_agent: 0 });
  });

  it("hands a run whose replay the API refused to the agent", async () => {
    const summary = await runTriggers(options("ws-refused", { skillPath: join(fx.dir, "refused", "haiku") }));
    expect(summary.records.map((r) => [r.record.decided_by, r.triggered])).toEqual([
      ["agent", true],
      ["agent", true],
    ]);
    expect(summary.results.screen).toMatchObject({ decided_by_replay: 0, decided_by_agent: 2 });
  });
});

describe("replays beside agent runs", () => {
  it("keep several replays in flight while the agent runs one at a time (--concurrency 1)", async () => {
    const slow = await startSim({ script, latencyMs: 1500, logBodies: true });
    let running = 0;
    let mostAtOnce = 0;
    try {
      await writeTree(fx.dir, {
        "lanes/haiku/SKILL.md": skillMd(
          "haiku",
          "Writes a haiku. Use when the user asks for a haiku.",
          "Haiku.",
        ),
        "lanes/haiku/evals/triggers.json": JSON.stringify([
          ...["rain", "snow", "wind", "sun"].map((w) => ({
            query: `never: weather ${w}`,
            should_trigger: false,
          })),
          { query: "later: a haiku on the files here", should_trigger: true },
          { query: "later: another haiku on the files", should_trigger: true },
        ]),
      });
      const summary = await runTriggers(
        options("ws-lanes", {
          skillPath: join(fx.dir, "lanes", "haiku"),
          concurrency: 1,
          runs: 1,
          createAgent: async () => {
            const agent = await createClaudeCodeAgent({ binary: fx.binary, simulatorUrl: slow.url });
            const run = agent.run.bind(agent);
            agent.run = async (request) => {
              mostAtOnce = Math.max(mostAtOnce, ++running);
              try {
                return await run(request);
              } finally {
                running--;
              }
            };
            return agent;
          },
        }),
      );
      expect(summary.records.map((r) => r.record.decided_by)).toEqual([
        "replay",
        "replay",
        "replay",
        "replay",
        "agent",
        "agent",
      ]);
      // The capture and the two undecided runs are agent runs: never two at once.
      expect(mostAtOnce).toBe(1);
      // Each answer takes 1.5 s: one after the other, no two replays would arrive less than 1.5 s apart.
      const arrivals = replays(slow.log)
        .map((e) => Date.parse(e.time))
        .sort((a, b) => a - b);
      expect(arrivals).toHaveLength(6);
      const closest = Math.min(...arrivals.slice(1).map((t, i) => t - arrivals[i]!));
      expect(closest).toBeLessThan(750);
    } finally {
      await slow.close();
    }
  });
});
