import { existsSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplayCapture } from "../../../src/contracts/replay-capture.js";
import type { ReplayAdapter } from "../../../src/triggers/replay/adapter.js";
import { startRecordingProxy } from "../../../src/triggers/replay/recording-proxy.js";
import { markedAgentRun, writeReplayedRun } from "../../../src/triggers/replay/replayed-run.js";
import { ReplayRequestError, replayQuery } from "../../../src/triggers/replay/send-replay.js";
import type { TriggerRunRecord } from "../../../src/triggers/run-trigger.js";
import { readJson, tempDir } from "../../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
// One plain upstream for the file: /fail answers 500 with a long body, /empty 204, anything else 200 without a
// content type; each request's path and headers are kept.
let upstream: Server;
let upstreamUrl: string;
const seen: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (req.url?.startsWith("/fail")) {
        res.writeHead(500);
        res.end(`${"x".repeat(200)}TAIL`);
      } else if (req.url?.startsWith("/empty")) {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(200);
        res.end('{"ok":true}');
      }
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

const spec = (name: string) => ({
  queryIndex: 2,
  query: "write a haiku",
  shouldTrigger: true,
  runNumber: 1,
  syntheticName: "haiku-sg-00000000",
  runDir: join(dir, name),
});
const turn = { text: "", calls: [] };

describe("a run decided by replay", () => {
  it("triggered: loaded our skill alone, stolen by none, not skipped", async () => {
    const record = await writeReplayedRun({
      spec: spec("triggered"),
      verdict: { label: "triggered" },
      turn,
      skillName: "haiku",
      listedAs: "haiku-sg-1",
      simulated: true,
      durationMs: 3,
    });
    expect(record).toMatchObject({ triggered: true, stolenBy: [], skipped: false, queryIndex: 2 });
    expect(await readJson(join(dir, "triggered/trigger.json"))).toMatchObject({
      skills_loaded: ["haiku"],
      stolen_by: [],
      cost_usd: 0,
    });
  });

  it("not triggered: no skill loaded, stolen by none", async () => {
    await writeReplayedRun({
      spec: spec("not-triggered"),
      verdict: { label: "not-triggered" },
      turn,
      skillName: "haiku",
      listedAs: "haiku-sg-1",
      simulated: false,
      durationMs: 3,
    });
    const written = await readJson(join(dir, "not-triggered/trigger.json"));
    expect(written).toMatchObject({
      triggered: false,
      skills_loaded: [],
      stolen_by: [],
      cost_source: "unknown",
    });
  });
});

describe("an agent's run marked as decided by the agent", () => {
  const agentRun = async (name: string, extra: Partial<TriggerRunRecord> = {}): Promise<TriggerRunRecord> => {
    const written = await writeReplayedRun({
      spec: spec(name),
      verdict: { label: "not-triggered" },
      turn,
      skillName: "haiku",
      listedAs: "haiku-sg-1",
      simulated: true,
      durationMs: 3,
    });
    return { ...written, ...extra };
  };

  it("without a check against replay: decided_by agent and no replay_agreed, in the record and trigger.json", async () => {
    const marked = await markedAgentRun(await agentRun("plain"));
    const written = await readJson(join(dir, "plain/trigger.json"));
    expect(written.decided_by).toBe("agent");
    expect(written).not.toHaveProperty("replay_agreed");
    expect(marked.record).toEqual(written);
    const agreed = await markedAgentRun(await agentRun("agreed"), false);
    expect(agreed.record).toMatchObject({ decided_by: "agent", replay_agreed: false });
  });

  it("a skipped run, or one reused from the store, is left as it is", async () => {
    for (const [name, extra] of [
      ["skipped", { skipped: true }],
      ["reused", { reusedFrom: { iteration: "x" } as unknown as TriggerRunRecord["reusedFrom"] }],
    ] as const) {
      const record = await agentRun(name, extra);
      expect(await markedAgentRun(record, true)).toBe(record);
      expect((await readJson(join(dir, name, "trigger.json"))).decided_by).toBe("replay");
    }
  });
});

describe("a replayed request", () => {
  const read: string[] = [];
  const adapter: ReplayAdapter = {
    agent: "test",
    apiKeyVariables: [],
    isFirstRequest: () => true,
    droppedHeaders: [],
    replayHeaders: (key) => ({ "x-key": key }),
    readTurn: (contentType, text) => {
      read.push(contentType);
      return { text, calls: [] };
    },
    skillOf: () => undefined,
  };
  const capture = (path: string): ReplayCapture => ({
    agent: "test",
    marker: "MARKER0123",
    synthetic_name: "haiku-sg-1",
    method: "POST",
    path,
    headers: { "x-kept": "yes" },
    body: '{"q":"MARKER0123"}',
  });

  it("goes to the base URL with its trailing slash dropped; an answer without a content type is read as ''", async () => {
    const turn = await replayQuery(
      { adapter, capture: capture("/v1/ok"), baseUrl: `${upstreamUrl}/`, apiKey: "k" },
      "hi",
      3,
    );
    expect(turn.text).toBe('{"ok":true}');
    expect(read.at(-1)).toBe("");
    expect(seen.at(-1)).toMatchObject({ path: "/v1/ok", body: '{"q":"hi"}' });
    expect(seen.at(-1)?.headers).toMatchObject({ "x-kept": "yes", "x-key": "k" });
  });

  it("an error answer names its status and the first 200 characters of its body", async () => {
    const sent = replayQuery(
      { adapter, capture: capture("/fail"), baseUrl: upstreamUrl, apiKey: "k" },
      "hi",
      1,
    );
    await expect(sent).rejects.toThrow(ReplayRequestError);
    await expect(sent).rejects.toThrow(new RegExp(`^replay answered 500: ${"x".repeat(200)}$`));
  });

  it("is stopped by its signal", async () => {
    const signal = AbortSignal.abort();
    await expect(
      replayQuery(
        { adapter, capture: capture("/v1/ok"), baseUrl: upstreamUrl, apiKey: "k", signal },
        "hi",
        1,
      ),
    ).rejects.toThrow(/abort/i);
  });
});

describe("the recording proxy's answers", () => {
  it("an upstream that cannot be reached: 502 with an API error naming the failure, the request still kept", async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", () => resolve()));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const proxy = await startRecordingProxy(`http://127.0.0.1:${port}`);
    try {
      const answer = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: "{}" });
      expect(answer.status).toBe(502);
      expect(answer.headers.get("content-type")).toBe("application/json");
      const body = (await answer.json()) as { type: string; error: { type: string; message: string } };
      expect(body).toMatchObject({ type: "error", error: { type: "api_error" } });
      expect(body.error.message).toMatch(/fetch failed/);
      expect(proxy.recorded).toMatchObject([{ method: "POST", path: "/v1/messages", body: "{}" }]);
    } finally {
      await proxy.close();
    }
  });

  it("an answer without a body ends; a header that comes as a list goes on joined by a comma", async () => {
    const proxy = await startRecordingProxy(upstreamUrl);
    try {
      const answer = await fetch(`${proxy.url}/empty`, { signal: AbortSignal.timeout(4000) });
      expect(answer.status).toBe(204);
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = httpRequest(
          `${proxy.url}/twice`,
          { method: "POST", headers: { "set-cookie": ["a=1", "b=2"] } },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode));
          },
        );
        req.on("error", reject);
        req.end("{}");
      });
      expect(status).toBe(200);
      expect(seen.at(-1)?.path).toBe("/twice");
      expect(seen.at(-1)?.headers["set-cookie"]).toEqual(["a=1, b=2"]);
    } finally {
      await proxy.close();
    }
  });
});

it("the temp folder holds what the runs wrote", () => {
  expect(existsSync(join(dir, "triggered", "replay-turn.json"))).toBe(true);
});
