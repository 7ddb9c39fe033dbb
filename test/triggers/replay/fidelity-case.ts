import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { Agent } from "../../../src/agents/agent.js";
import { SimScript } from "../../../src/contracts/sim-script.js";
import { type SimLogEntry, type SimServer, startSim } from "../../../src/sim/index.js";
import { runTriggers, type TriggerOptions } from "../../../src/triggers/index.js";
import { withQuery } from "../../../src/triggers/replay/marker.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../../e2e/helpers.js";

// The fidelity case every agent with replay is held to: queries that load the skill on the first turn, after a shell
// call, that go to another skill, or that never load one. Replay decides the first, third and fourth kinds, hands
// the second to the agent, and every verdict equals the all-agent run's.
const script = SimScript.parse({
  rules: [
    { match: "^first ", skill: "~haiku-sg-" },
    { match: "^later ", skill: "~haiku-sg-", before: [{ bash: "true" }] },
    { match: "^rival ", skill: "limerick" },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

export interface FidelityQuery {
  query: string;
  should_trigger: boolean;
  /** Who decides the run under `--screen replay`. */
  kind: "replay" | "agent";
}

export const FIDELITY_QUERIES: FidelityQuery[] = [
  { query: "first write a haiku about rain", should_trigger: true, kind: "replay" },
  { query: 'first a haiku, "quoted",\nover two lines', should_trigger: true, kind: "replay" },
  { query: "later a haiku about the files here", should_trigger: true, kind: "agent" },
  { query: "rival a funny rhyme about a cat", should_trigger: false, kind: "replay" },
  { query: "never what is 2+2", should_trigger: false, kind: "replay" },
];

/**
 * The suite and one simulator for a file's fidelity test (set up in its beforeAll), and the run that makes the
 * same trigger eval through the agents and then with `--screen replay`, checking what every agent must show.
 */
export function fidelityCase(input: {
  createAgent: (simulatorUrl: string) => Promise<Agent>;
  queries?: FidelityQuery[];
  /** A project each run starts in a copy of. */
  project?: Record<string, string>;
}) {
  const queries = input.queries ?? FIDELITY_QUERIES;
  const state = { dir: "", sim: undefined as SimServer | undefined, cleanup: async () => {} };
  beforeAll(async () => {
    ({ dir: state.dir, cleanup: state.cleanup } = await tempDir());
    await writeTree(state.dir, {
      "haiku/SKILL.md": skillMd("haiku", "Writes a haiku. Use when the user asks for a haiku.", "Write one."),
      "haiku/evals/triggers.json": JSON.stringify(queries.map(({ kind: _, ...q }) => q)),
      "limerick/SKILL.md": skillMd("limerick", "Writes limericks.", "Write one."),
      ...Object.fromEntries(
        Object.entries(input.project ?? {}).map(([path, text]) => [`project/${path}`, text]),
      ),
    });
    state.sim = await startSim({ script, logBodies: true });
  });
  afterAll(async () => {
    await state.sim?.close();
    await state.cleanup();
  });

  const options = (workspace: string, extra: Partial<TriggerOptions> = {}): TriggerOptions => ({
    skillPath: join(state.dir, "haiku"),
    workspace: join(state.dir, workspace),
    withSkills: [join(state.dir, "limerick")],
    ...(input.project ? { project: join(state.dir, "project") } : {}),
    runs: 1,
    threshold: 0.5,
    concurrency: 3,
    timeoutSeconds: 90,
    retry: fastRetry,
    createAgent: () => input.createAgent(state.sim?.url ?? ""),
    ...extra,
  });

  /** Both runs; the verdicts equal and each run decided by whom it should be. The screened run's sim log and capture. */
  async function run() {
    const agents = await runTriggers(options("ws-agents"));
    const sim = state.sim as SimServer;
    const from = sim.log.length;
    const screened = await runTriggers(
      options("ws-replay", { store: { dir: join(state.dir, "cache") }, screen: { kind: "replay" } }),
    );
    const verdicts = (s: typeof agents) =>
      s.results.results.map((r) => ({
        query: r.query,
        pass: r.pass,
        triggers: r.triggers,
        stolen: r.stolen_by,
      }));
    expect(verdicts(screened)).toEqual(verdicts(agents));
    expect(agents.results.results.map((r) => r.pass)).toEqual(queries.map(() => true));
    const decided = Object.fromEntries(screened.records.map((r) => [r.spec.query, r.record.decided_by]));
    expect(decided).toEqual(Object.fromEntries(queries.map((q) => [q.query, q.kind])));

    const log = sim.log.slice(from);
    const capture = log.find(
      (e) => /^SKILLGYMREPLAYQUERY[0-9a-f]{16}$/.test(e.prompt) && e.action !== "side-request",
    ) as SimLogEntry;
    const replays = log.filter((e) => e.headers?.["x-skillgym-replay"]);
    return { log, capture, replays, dir: state.dir };
  }

  /** The agent's own first request, byte for byte but for the query, is what each replay sent: one per `queries`. */
  function expectSentAsCaptured(capture: SimLogEntry, replays: SimLogEntry[], replayed: FidelityQuery[]) {
    expect(replays.length).toBe(replayed.length);
    for (const entry of replays)
      expect(entry.body).toBe(withQuery(capture.body ?? "", capture.prompt, entry.prompt));
    expect(replays.map((e) => e.prompt).sort()).toEqual(replayed.map((q) => q.query).sort());
  }

  return { queries, run, expectSentAsCaptured };
}
