import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent, AgentRunRequest, AgentRunResult } from "../../../src/agents/agent.js";
import { createRedactor } from "../../../src/redact.js";
import type { ResultStore } from "../../../src/store/index.js";
import { captureFirstRequest } from "../../../src/triggers/replay/capture.js";
import { claudeCodeReplay } from "../../../src/triggers/replay/claude-code.js";
import type { TriggerContext } from "../../../src/triggers/run-trigger.js";
import { readJson, skillMd, tempDir } from "../../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let upstream: Server;
let upstreamUrl: string;
let skillDir: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  skillDir = join(dir, "haiku");
  await mkdir(skillDir, { recursive: true });
  await writeFile(join(skillDir, "SKILL.md"), skillMd("haiku", "Writes haiku.", "Write one."));
  upstream = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await cleanup?.();
});

const processResult = {
  exitCode: 0,
  signal: null,
  timedOut: false,
  cancelled: false,
  stopped: false,
  durationMs: 1,
  startedAt: new Date(0).toISOString(),
  endedAt: new Date(0).toISOString(),
  stderrTail: "",
};

// A POST of the agent's turn to where the run is told to send its model requests, with a header as a list.
function post(base: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}/v1/messages?beta=true`,
      {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "secret", "set-cookie": ["a=1", "b=2"] },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve());
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

// An agent that, run, sends one model request holding its prompt (with tools, or not), then ends as told.
function fakeAgent(opts: { tools: boolean; fail?: string; sandbox?: object; apiBaseUrl?: string | null }) {
  const runs: AgentRunRequest[] = [];
  const agent = {
    name: "claude-code",
    skillsFolder: ".claude/skills",
    binary: "fake",
    simulated: true,
    redactor: createRedactor([]),
    ...(opts.apiBaseUrl === null ? {} : { apiBaseUrl: opts.apiBaseUrl ?? upstreamUrl }),
    ...(opts.sandbox ? { sandboxed: true, sandbox: opts.sandbox } : {}),
    async run(request: AgentRunRequest): Promise<AgentRunResult> {
      runs.push(request);
      const messages = [{ role: "user", content: request.prompt }];
      await post(
        request.apiBaseUrl ?? "",
        JSON.stringify(opts.tools ? { messages, tools: [{ name: "Skill" }] } : { messages }),
      );
      return opts.fail
        ? { outcome: "crash", message: opts.fail, events: [], process: { ...processResult, exitCode: 1 } }
        : { outcome: "success", events: [], process: processResult };
    },
  } as unknown as Agent;
  return { agent, runs };
}

const context = (agent: Agent, tempRoot: string): TriggerContext => ({
  agent,
  skillName: "haiku",
  skillSourceDir: skillDir,
  companions: [],
  timeoutMs: 30_000,
  tempRoot,
  retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
});

function memoryStore() {
  const put: { kind: string; key: string; runDir: string; source: unknown }[] = [];
  const store = {
    get: async () => undefined,
    put: async (kind: string, key: string, run: { runDir: string; source: unknown }) => {
      put.push({ kind, key, runDir: run.runDir, source: run.source });
    },
  } as unknown as ResultStore;
  return { store, put };
}

describe("capturing the agent's first request", () => {
  it("keeps it with its headers lower-cased, lists joined, credentials and the hop's own dropped; stores capture.json", async () => {
    const tempRoot = join(dir, "t1");
    const { agent, runs } = fakeAgent({ tools: true });
    const { store, put } = memoryStore();
    const iterationDir = join(dir, "iteration-1");
    const got = await captureFirstRequest({
      ctx: context(agent, tempRoot),
      adapter: claudeCodeReplay,
      description: "Writes haiku.",
      store,
      iterationDir,
      key: "k1",
    });
    if (!got.capture) throw new Error(`no capture: ${"reason" in got ? got.reason : ""}`);
    const { capture } = got;
    expect(got.captured).toBe(true);
    expect(capture).toMatchObject({ agent: "claude-code", method: "POST", path: "/v1/messages?beta=true" });
    expect(capture.headers).toEqual({ "content-type": "application/json", "set-cookie": "a=1, b=2" });
    expect(JSON.parse(capture.body)).toEqual({
      messages: [{ role: "user", content: capture.marker }],
      tools: [{ name: "Skill" }],
    });
    expect(capture.synthetic_name).toMatch(/^haiku-/);
    // The run's workspace is under a folder of its own, named by the marker's end.
    const tail = capture.marker.slice(-8);
    expect((await readdir(tempRoot)).sort()).toEqual([
      `replay-capture-${tail}`,
      `replay-capture-${tail}-stored`,
    ]);
    expect(existsSync(join(tempRoot, `replay-capture-${tail}`, "temp"))).toBe(true);
    expect(runs[0]?.cwd.startsWith(join(tempRoot, `replay-capture-${tail}`, "temp"))).toBe(true);
    expect(await readJson(join(tempRoot, `replay-capture-${tail}-stored`, "capture.json"))).toEqual(capture);
    expect(put).toEqual([
      {
        kind: "replay-capture",
        key: "k1",
        runDir: join(tempRoot, `replay-capture-${tail}-stored`),
        source: { iteration: "iteration-1", run: "triggers/replay-capture", workspace: dir, cost_usd: 0 },
      },
    ]);
    expect(runs[0]?.sandbox).toBeUndefined();
    // The recording proxy the run went through is closed once the capture is made.
    await expect(fetch(`${runs[0]?.apiBaseUrl}/v1/models`)).rejects.toThrow();
  });

  it("a sandboxed agent's run has the proxy as its one network target", async () => {
    const { agent, runs } = fakeAgent({ tools: true, sandbox: { network: { kind: "none" }, extra: 1 } });
    await captureFirstRequest({
      ctx: context(agent, join(dir, "t2")),
      adapter: claudeCodeReplay,
      description: "Writes haiku.",
      iterationDir: dir,
      key: "k2",
    });
    const sent = runs[0];
    expect(sent?.sandbox).toEqual({ network: { kind: "simulator", url: sent?.apiBaseUrl }, extra: 1 });
    expect(sent?.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sent?.apiBaseUrl).not.toBe(upstreamUrl);
  });

  it("no request with tools: a reason, naming the run's error when it had one", async () => {
    const plain = await captureFirstRequest({
      ctx: context(fakeAgent({ tools: false }).agent, join(dir, "t3")),
      adapter: claudeCodeReplay,
      description: "d",
      iterationDir: dir,
      key: "k3",
    });
    expect(plain).toEqual({ reason: "the capture run sent no model request with tools and its query" });
    const failed = await captureFirstRequest({
      ctx: context(fakeAgent({ tools: false, fail: "it broke" }).agent, join(dir, "t4")),
      adapter: claudeCodeReplay,
      description: "d",
      iterationDir: dir,
      key: "k4",
    });
    expect(failed).toEqual({
      reason: "the capture run sent no model request with tools and its query (it broke)",
    });
  });

  it("an agent that does not say where it sends model requests: a reason, and no run", async () => {
    const { agent, runs } = fakeAgent({ tools: true, apiBaseUrl: null });
    expect(
      await captureFirstRequest({
        ctx: context(agent, join(dir, "t5")),
        adapter: claudeCodeReplay,
        description: "d",
        iterationDir: dir,
        key: "k5",
      }),
    ).toEqual({ reason: "claude-code does not say where it sends model requests" });
    expect(runs).toEqual([]);
  });
});
