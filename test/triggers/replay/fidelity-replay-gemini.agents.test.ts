import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agents/registry.js";
import { SimScript } from "../../../src/contracts/sim-script.js";
import { type SimServer, startSim } from "../../../src/sim/index.js";
import { runTriggers, type TriggerOptions } from "../../../src/triggers/index.js";
import { withQuery } from "../../../src/triggers/replay/marker.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../../e2e/helpers.js";

// The fidelity case through the real Gemini CLI: queries that load the skill on the first turn, after a shell call,
// that go to another skill, or that never load one. Replay decides the first, third and fourth kinds, hands the
// second to the agent, and every verdict equals the all-agent run's.
const script = SimScript.parse({
  rules: [
    { match: "^first ", skill: "~haiku-sg-" },
    { match: "^later ", skill: "~haiku-sg-", before: [{ bash: "true" }] },
    { match: "^rival ", skill: "limerick" },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});
const QUERIES = [
  { query: "first write a haiku about rain", should_trigger: true, kind: "replay" },
  { query: 'first a haiku, "quoted",\nover two lines', should_trigger: true, kind: "replay" },
  { query: "later a haiku about the files here", should_trigger: true, kind: "agent" },
  // Gemini CLI rewrites an @ reference before its request (it inlines the file): the agent makes that run.
  { query: "first a haiku about @notes.md", should_trigger: true, kind: "agent" },
  { query: "rival a funny rhyme about a cat", should_trigger: false, kind: "replay" },
  { query: "never what is 2+2", should_trigger: false, kind: "replay" },
];

const NOTES = "Rain on the tin roof, notes kept in NOTESFILE7d3.\n";

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd("haiku", "Writes a haiku. Use when the user asks for a haiku.", "Write one."),
    "haiku/evals/triggers.json": JSON.stringify(QUERIES.map(({ kind: _, ...q }) => q)),
    "limerick/SKILL.md": skillMd("limerick", "Writes limericks.", "Write one."),
    "project/notes.md": NOTES,
  });
  sim = await startSim({ script, logBodies: true });
});
afterAll(async () => {
  await sim.close();
  await cleanup();
});

const options = (workspace: string, extra: Partial<TriggerOptions> = {}): TriggerOptions => ({
  skillPath: join(dir, "haiku"),
  workspace: join(dir, workspace),
  withSkills: [join(dir, "limerick")],
  project: join(dir, "project"),
  runs: 1,
  threshold: 0.5,
  concurrency: 3,
  timeoutSeconds: 90,
  retry: fastRetry,
  createAgent: () => createAgent("gemini", { simulatorUrl: sim.url }),
  ...extra,
});

describe("--screen replay through the real Gemini CLI", () => {
  it("decides first-turn runs by replay, hands the rest to the agent, and every verdict equals the all-agent run", async () => {
    const agents = await runTriggers(options("ws-agents"));
    const from = sim.log.length;
    const screened = await runTriggers(
      options("ws-replay", { store: { dir: join(dir, "cache") }, screen: { kind: "replay" } }),
    );
    const verdicts = (s: typeof agents) =>
      s.results.results.map((r) => ({
        query: r.query,
        pass: r.pass,
        triggers: r.triggers,
        stolen: r.stolen_by,
      }));
    expect(verdicts(screened)).toEqual(verdicts(agents));
    expect(agents.results.results.map((r) => r.pass)).toEqual(QUERIES.map(() => true));

    const decided = Object.fromEntries(screened.records.map((r) => [r.spec.query, r.record.decided_by]));
    expect(decided).toEqual(Object.fromEntries(QUERIES.map((q) => [q.query, q.kind])));

    // Gemini CLI's own first request, byte for byte but for the query, is what each replay sent.
    const log = sim.log.slice(from);
    const capture = log.find(
      (e) => /^SKILLGYMREPLAYQUERY[0-9a-f]{16}$/.test(e.prompt) && e.action !== "side-request",
    );
    // The agent's own request for the @ query holds the file's content: no replay of the capture could have sent it.
    const inlined = log.find((e) => e.prompt.startsWith("first a haiku about @notes.md"));
    expect(inlined?.body).toContain("NOTESFILE7d3");
    const replays = log.filter((e) => e.headers?.["x-skillgym-replay"]);
    const replayed = QUERIES.filter((q) => !q.query.includes("@"));
    expect(replays.length).toBe(replayed.length);
    for (const entry of replays) {
      expect(entry.path).toBe(capture!.path);
      expect(entry.body).toBe(withQuery(capture!.body!, capture!.prompt, entry.prompt));
    }
    expect(replays.map((e) => e.prompt).sort()).toEqual(replayed.map((q) => q.query).sort());
    // Sent as Gemini CLI sends it (its client headers), with a key of the replay's own; none stored with the capture.
    for (const entry of replays) {
      expect(entry.headers?.["user-agent"]).toBe(capture!.headers?.["user-agent"]);
      expect(entry.headers?.["x-goog-api-client"]).toBe(capture!.headers?.["x-goog-api-client"]);
    }
    const stored = (await readdir(join(dir, "cache"), { recursive: true })).filter((f) =>
      f.endsWith("capture.json"),
    );
    expect(stored).toHaveLength(1);
    const kept = JSON.parse(await readFile(join(dir, "cache", stored[0]!), "utf8"));
    expect(kept.headers["user-agent"]).toMatch(/^GeminiCLI/);
    expect(kept.headers).not.toHaveProperty("x-goog-api-key");
    expect(kept.body).toBe(capture!.body);
  });
});
