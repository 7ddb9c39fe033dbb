import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { type SimServer, startSim } from "../../../src/sim/index.js";
import { startRecordingProxy } from "../../../src/triggers/replay/recording-proxy.js";
import { claudeRequest } from "../../sim/sim-client.js";

let sim: SimServer | undefined;
let close: (() => Promise<void>) | undefined;
let upstream: Server | undefined;
afterEach(async () => {
  await close?.();
  await sim?.close();
  await new Promise((done) => (upstream ? upstream.close(done) : done(undefined)));
  sim = undefined;
  close = undefined;
  upstream = undefined;
});

// An upstream of the test's own: it keeps what it was sent and answers a gzip-encoded JSON body.
async function gzipUpstream(seen: { method?: string; body: string }[]): Promise<string> {
  upstream = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method, body: Buffer.concat(chunks).toString("utf8") });
      const zipped = gzipSync(JSON.stringify({ ok: true, method: req.method }));
      res.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": String(zipped.length),
      });
      res.end(zipped);
    });
  });
  await new Promise<void>((done) => upstream!.listen(0, "127.0.0.1", () => done()));
  return `http://127.0.0.1:${(upstream!.address() as AddressInfo).port}`;
}

describe("the recording proxy", () => {
  it("passes each request on unchanged, keeps it as it came, and streams the answer back whole", async () => {
    sim = await startSim({ logBodies: true });
    const proxy = await startRecordingProxy(`${sim.url}/`);
    close = proxy.close;
    const body = JSON.stringify(claudeRequest({ prompt: "a haiku — «über» 🎉", stream: true }));
    const headers = {
      "content-type": "application/json",
      "x-claude-code-session-id": "s1",
      "user-agent": "claude-cli/x",
    };
    const through = await fetch(`${proxy.url}/v1/messages?beta=true`, { method: "POST", headers, body });
    const text = await through.text();

    expect(through.headers.get("content-type")).toMatch(/text\/event-stream/);
    expect(text).toMatch(/message_stop/);
    expect(proxy.recorded).toHaveLength(1);
    expect(proxy.recorded[0]).toMatchObject({ method: "POST", path: "/v1/messages?beta=true", body });
    expect(proxy.recorded[0]?.headers["user-agent"]).toBe("claude-cli/x");
    expect(sim.log[0]?.body).toBe(body);
    expect(sim.log[0]?.headers?.["x-claude-code-session-id"]).toBe("s1");
    expect(sim.log[0]?.path).toBe("/v1/messages?beta=true");
  });

  it("passes a GET on without a body, and answers a compressed upstream answer decoded, without its encoding", async () => {
    const seen: { method?: string; body: string }[] = [];
    const proxy = await startRecordingProxy(await gzipUpstream(seen));
    close = proxy.close;
    const got = await fetch(`${proxy.url}/v1/models`);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-encoding")).toBeNull();
    expect(await got.json()).toEqual({ ok: true, method: "GET" });
    const posted = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: "{}" });
    expect(await posted.json()).toEqual({ ok: true, method: "POST" });
    expect(seen).toEqual([
      { method: "GET", body: "" },
      { method: "POST", body: "{}" },
    ]);
    expect(proxy.recorded.map((r) => [r.method, r.path, r.body])).toEqual([
      ["GET", "/v1/models", ""],
      ["POST", "/v1/messages", "{}"],
    ]);
    const head = await fetch(`${proxy.url}/v1/models`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(seen.at(-1)).toEqual({ method: "HEAD", body: "" });
  });

  it("listens on the loopback address only", async () => {
    const proxy = await startRecordingProxy(await gzipUpstream([]));
    close = proxy.close;
    const port = new URL(proxy.url).port;
    expect((await fetch(`${proxy.url}/v1/models`)).status).toBe(200);
    await expect(fetch(`http://[::1]:${port}/v1/models`)).rejects.toThrow();
  });

  it("closes while an answer is still streaming", async () => {
    const streaming: ServerResponse[] = [];
    upstream = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      streaming.push(res);
    });
    await new Promise<void>((done) => upstream!.listen(0, "127.0.0.1", () => done()));
    const proxy = await startRecordingProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    const answer = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: "{}" });
    const reader = answer.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: first\n\n");
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((done) => {
      timer = setTimeout(() => done("still open"), 20_000);
    });
    expect(await Promise.race([proxy.close().then(() => "closed"), waited])).toBe("closed");
    clearTimeout(timer);
    await expect(reader.read()).rejects.toThrow(/terminated/);
    for (const res of streaming) res.end();
  });

  it("cuts an answer off where its upstream dropped, and serves on", async () => {
    let calls = 0;
    upstream = createServer((_req, res) => {
      calls++;
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (calls > 1) return void res.end("data: whole\n\n");
      // The first answer: one event, then the connection is gone.
      res.write("data: first\n\n", () => setTimeout(() => res.socket?.destroy(), 50));
    });
    await new Promise<void>((done) => upstream!.listen(0, "127.0.0.1", () => done()));
    const proxy = await startRecordingProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    close = proxy.close;
    const cut = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: "{}" });
    expect(cut.status).toBe(200);
    await expect(cut.text()).rejects.toThrow(/terminated/);
    const whole = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: "{}" });
    expect(await whole.text()).toBe("data: whole\n\n");
    expect(proxy.recorded).toHaveLength(2);
  });

  it("answers 502 with the reason when the upstream cannot be reached", async () => {
    const proxy = await startRecordingProxy("http://127.0.0.1:1");
    close = proxy.close;
    const answer = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: "{}" });
    expect(answer.status).toBe(502);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(await answer.json()).toEqual({
      type: "error",
      error: { type: "api_error", message: "TypeError: fetch failed" },
    });
  });
});
