import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResultStore } from "../../../src/store/index.js";
import { REPLAY_HEADER } from "../../../src/triggers/replay/adapter.js";
import { classifyFirstTurn } from "../../../src/triggers/replay/first-turn.js";
import {
  REPLAYS_PER_AGENT_SLOT,
  type ScreenedKind,
  screenRuns,
} from "../../../src/triggers/replay/screen-runs.js";
import type { TriggerContext } from "../../../src/triggers/run-trigger.js";
import { tempDir } from "../../e2e/helpers.js";

const MARKER = "SKILLGYMREPLAYQUERY0123456789abcdef";
let dir: string;
let cleanup: () => Promise<void>;
let api: Server;
let apiUrl: string;
const replayed: { query: string; run: string | undefined }[] = [];

// The model API: a query with "trigger" loads the skill, "shell" runs a shell (undecided), "fail" is a 500, any
// other a text answer.
function answer(query: string) {
  if (query.includes("trigger")) return [{ type: "tool_use", name: "Skill", input: { skill: "haiku-sg-1" } }];
  if (query.includes("shell")) return [{ type: "tool_use", name: "Bash", input: { command: "ls" } }];
  return [{ type: "text", text: "a haiku" }];
}
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, "stored"), { recursive: true });
  await writeFile(
    join(dir, "stored", "capture.json"),
    JSON.stringify({
      agent: "claude-code",
      marker: MARKER,
      synthetic_name: "haiku-sg-1",
      method: "POST",
      path: "/v1/messages",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: MARKER }], tools: [{ name: "Skill" }] }),
    }),
  );
  api = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const query = (
        JSON.parse(Buffer.concat(chunks).toString("utf8")) as { messages: { content: string }[] }
      ).messages[0]!.content;
      replayed.push({ query, run: req.headers[REPLAY_HEADER] as string | undefined });
      if (query.includes("fail")) {
        res.writeHead(500);
        res.end("overloaded");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ model: "claude-x", content: answer(query) }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", () => resolve()));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  api.closeAllConnections();
  await new Promise<void>((resolve) => api.close(() => resolve()));
  await cleanup?.();
});

interface Spec {
  query: string;
  n: number;
  screened?: boolean;
  agentSays?: boolean;
  agentFails?: boolean;
}
interface Rec {
  spec: Spec;
  by: "agent" | "replay";
  triggered?: boolean;
  error?: string;
  verdict?: string;
  marked?: boolean;
  agreed?: boolean;
  redone?: boolean;
  durationMs?: number;
  cancelled?: boolean;
}

function kindFor() {
  const agentRuns: string[] = [];
  const kind: ScreenedKind<Spec, Rec> = {
    query: (s) => s.query,
    runNumber: (s) => s.n,
    screened: (s) => s.screened ?? true,
    agentRun: async (s) => {
      agentRuns.push(s.query);
      return {
        spec: s,
        by: "agent",
        triggered: s.agentSays ?? false,
        ...(s.agentFails ? { error: "crash" } : {}),
      };
    },
    markAgent: async (r, agreed) => ({ ...r, marked: true, ...(agreed !== undefined ? { agreed } : {}) }),
    writeReplayed: async (spec, verdict, _turn, _target, durationMs) => ({
      spec,
      by: "replay",
      verdict: verdict.label,
      durationMs,
    }),
    agrees: (r, verdict) =>
      r.error !== undefined ? undefined : r.triggered === (verdict.label === "triggered"),
    specOf: (r) => r.spec,
    decidedByReplay: (r) => r.by === "replay",
    cancelled: (r) => r.cancelled === true,
    classify: (turn, target) =>
      classifyFirstTurn(turn, target.capture.synthetic_name, target.adapter.skillOf),
  };
  return { kind, agentRuns };
}

const store = { get: async () => ({ filesDir: join(dir, "stored") }) } as unknown as ResultStore;
const input = (
  opts: { verifyPercent?: number; env?: NodeJS.ProcessEnv; concurrency?: number },
  warned: string[] = [],
) => ({
  ctx: {
    agent: { name: "claude-code", simulated: false, apiBaseUrl: apiUrl },
    skillName: "haiku",
    companions: [],
    tempRoot: dir,
  } as unknown as TriggerContext,
  screen: {
    kind: "replay" as const,
    env: opts.env ?? { ANTHROPIC_API_KEY: "sk-ant" },
    ...(opts.verifyPercent !== undefined ? { verifyPercent: opts.verifyPercent } : {}),
  },
  description: "d",
  iterationDir: dir,
  store,
  captureKey: "k",
  concurrency: opts.concurrency ?? 2,
  warn: (m: string) => warned.push(m),
});

describe("screening runs by replay", () => {
  it("a decided first turn is the run's verdict; undecided, failed, rewritten or unscreened runs go to the agent", async () => {
    const { kind, agentRuns } = kindFor();
    const screened = screenRuns(input({}), kind);
    const records = [
      await screened.run({ query: "please trigger", n: 3 }),
      await screened.run({ query: "just chat", n: 1 }),
      await screened.run({ query: "use the shell", n: 1 }),
      await screened.run({ query: "fail please", n: 1 }),
      await screened.run({ query: "/command trigger", n: 1 }),
      await screened.run({ query: "trigger not screened", n: 1, screened: false }),
    ];
    expect(records.map((r) => [r.by, r.verdict ?? null, r.marked ?? false, "agreed" in r])).toEqual([
      ["replay", "triggered", false, false],
      ["replay", "not-triggered", false, false],
      ["agent", null, true, false],
      ["agent", null, true, false],
      ["agent", null, true, false],
      ["agent", null, true, false],
    ]);
    expect(agentRuns).toEqual(["use the shell", "fail please", "/command trigger", "trigger not screened"]);
    expect(replayed.slice(-4)).toEqual([
      { query: "please trigger", run: "run-3" },
      { query: "just chat", run: "run-1" },
      { query: "use the shell", run: "run-1" },
      { query: "fail please", run: "run-1" },
    ]);
    expect(screened.summary(records)).toEqual({
      kind: "replay",
      decided_by_replay: 2,
      decided_by_agent: 4,
      captured: false,
    });
    // A replayed run took the time of its request, not the clock's reading.
    for (const r of records.filter((r) => r.by === "replay"))
      expect(r.durationMs).toSatisfy((ms: number) => ms >= 0 && ms < 60_000);
    // A cancelled run was decided by no one.
    expect(screened.summary([...records, { ...records[2]!, cancelled: true }])).toMatchObject({
      decided_by_replay: 2,
      decided_by_agent: 4,
    });
    expect(await screened.finish(records)).toBe(records);
    expect(screened.lanes()).toBe(2 * REPLAYS_PER_AGENT_SLOT);
  });

  it("no API key: off, every run the agent's, the reason in the summary", async () => {
    const { kind, agentRuns } = kindFor();
    const warned: string[] = [];
    const screened = screenRuns(input({ env: {}, concurrency: 0 }, warned), kind);
    const record = await screened.run({ query: "please trigger", n: 1 });
    expect(record).toMatchObject({ by: "agent", marked: true });
    expect(agentRuns).toEqual(["please trigger"]);
    expect(screened.summary([record])).toMatchObject({ decided_by_replay: 0, decided_by_agent: 1 });
    expect(screened.summary([record]).off).toMatch(/^replay sends requests to the API itself/);
    expect(warned).toHaveLength(1);
    expect(screened.lanes()).toBe(REPLAYS_PER_AGENT_SLOT);
  });

  it("--screen-verify: an agent that disagrees drops replay, and the replayed runs are made again by the agent", async () => {
    const { kind, agentRuns } = kindFor();
    const warned: string[] = [];
    const screened = screenRuns(input({ verifyPercent: 50 }, warned), kind);
    // The 1st replayed run is checked, and the agent's run erred: no verdict, not counted.
    const first = await screened.run({ query: "trigger one", n: 1, agentFails: true });
    expect(first).toMatchObject({ by: "agent", marked: true });
    expect(first).not.toHaveProperty("agreed");
    // The 2nd is not checked: replay decides it.
    const second = await screened.run({ query: "trigger two", n: 1 });
    expect(second).toMatchObject({ by: "replay", verdict: "triggered" });
    // The 3rd is checked: the agent says not triggered, replay triggered: 0 of 1 agreed, below the mark.
    const third = await screened.run({ query: "trigger three", n: 1, agentSays: false });
    expect(third).toMatchObject({ by: "agent", agreed: false });
    expect(warned).toEqual([
      "--screen-verify: replay agreed with the agent on 0 of 1 checked runs, below 95%; the agents make the replayed runs again and every run after",
    ]);
    const before = replayed.length;
    const fourth = await screened.run({ query: "trigger four", n: 1 });
    expect(fourth).toMatchObject({ by: "agent", marked: true });
    expect(replayed.length).toBe(before);
    const records = [first, second, third, fourth];
    const again = await screened.finish(records);
    expect(again.map((r) => r.by)).toEqual(["agent", "agent", "agent", "agent"]);
    expect(again[1]).toMatchObject({ spec: second.spec, marked: true });
    expect(again[0]).toBe(first);
    expect(agentRuns).toEqual(["trigger one", "trigger three", "trigger four", "trigger two"]);
    expect(screened.summary(records)).toEqual({
      kind: "replay",
      decided_by_replay: 1,
      decided_by_agent: 3,
      captured: false,
      verified: { runs: 1, agreed: 0, agreement: 0, fell_back: true },
    });
  });

  it("--screen-verify with no agent slot set: the fallback still redoes the replayed runs, those without a spec kept", async () => {
    const { kind, agentRuns } = kindFor();
    const screened = screenRuns(input({ verifyPercent: 50, concurrency: 0 }), kind);
    await screened.run({ query: "trigger one", n: 1, agentFails: true });
    const second = await screened.run({ query: "trigger two", n: 1 });
    await screened.run({ query: "trigger three", n: 1, agentSays: false });
    expect(second).toMatchObject({ by: "replay" });
    const specless = { by: "replay" } as Rec;
    const again = await screened.finish([second, specless]);
    expect(again[0]).toMatchObject({ by: "agent", spec: second.spec, marked: true });
    expect(again[1]).toBe(specless);
    expect(agentRuns).toEqual(["trigger one", "trigger three", "trigger two"]);
  });

  it("--screen-verify: two checked runs at once that both disagree warn once", async () => {
    const { kind } = kindFor();
    const warned: string[] = [];
    const screened = screenRuns(input({ verifyPercent: 100 }, warned), kind);
    const records = await Promise.all([
      screened.run({ query: "trigger a", n: 1 }),
      screened.run({ query: "trigger b", n: 1 }),
    ]);
    expect(records.map((r) => r.agreed)).toEqual([false, false]);
    expect(warned).toHaveLength(1);
    expect(screened.summary(records).verified).toEqual({ runs: 2, agreed: 0, agreement: 0, fell_back: true });
  });

  it("--screen-verify with agreement: counted, no fallback", async () => {
    const { kind } = kindFor();
    const screened = screenRuns(input({ verifyPercent: 100 }), kind);
    const record = await screened.run({ query: "trigger", n: 1, agentSays: true });
    expect(record).toMatchObject({ by: "agent", agreed: true });
    expect(screened.summary([record]).verified).toEqual({
      runs: 1,
      agreed: 1,
      agreement: 1,
      fell_back: false,
    });
  });
});
