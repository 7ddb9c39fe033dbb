import { connect, createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type NetworkGate, openNetworkGate, requestTarget } from "../../src/sandbox/index.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let target: Server;
let targetPort: number;
let gate: NetworkGate | undefined;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  // A local stand-in for the model API: it answers every line with "echo: <line>".
  target = createServer((socket) => socket.on("data", (chunk) => socket.write(`echo: ${chunk}`)));
  await new Promise<void>((done) => target.listen(0, "127.0.0.1", done));
  const address = target.address();
  targetPort = typeof address === "object" && address ? address.port : 0;
});
afterEach(async () => {
  await gate?.close();
  gate = undefined;
  await new Promise<void>((done) => target.close(() => done()));
  await cleanup();
});

// Sends `request` over the gate's socket, then `then` once the gate has answered; resolves with all it received.
function converse(socketPath: string, request: string, then?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let received = "";
    let sent = false;
    socket.on("data", (chunk) => {
      received += chunk.toString();
      if (then && !sent && received.includes("\r\n\r\n")) {
        sent = true;
        socket.write(then);
      }
      if (then && received.includes("echo:")) socket.end();
    });
    socket.on("end", () => resolve(received));
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
    socket.write(request);
  });
}

describe("the network gate's CONNECT filter", () => {
  it("tunnels a CONNECT to an allowed host", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["127.0.0.1"] });
    const reply = await converse(
      socketPath,
      `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: x\r\n\r\n`,
      "hello",
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(reply).toContain("echo: hello");
    expect(gate.refusedHosts()).toEqual([]);
  });

  it("carries a tunnel's bytes both ways unchanged, the first ones after the CONNECT reply included", async () => {
    // A TLS-like server: it speaks first (a ServerHello-like record), then echoes every byte it gets.
    const serverHello = Buffer.from([0x16, 0x03, 0x03, 0x00, 0x31, 0x02, 0x00, 0x00, 0x2d, 0x03, 0x03]);
    let serverGot = Buffer.alloc(0);
    const tls = createServer((socket) => {
      socket.write(serverHello);
      socket.on("data", (chunk) => {
        serverGot = Buffer.concat([serverGot, chunk]);
        socket.write(chunk);
      });
    });
    await new Promise<void>((done) => tls.listen(0, "127.0.0.1", done));
    const address = tls.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["127.0.0.1"] });
    // A ClientHello-like first record, sent in the same write as the CONNECT; then every byte value; then a bulk.
    const clientHello = Buffer.from([
      0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0d, 0x0a,
    ]);
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const bulk = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 256));
    const sent = Buffer.concat([clientHello, everyByte, bulk]);
    const reply = "HTTP/1.1 200 Connection Established\r\n\r\n";
    try {
      const received = await new Promise<Buffer>((resolve, reject) => {
        const socket = connect(socketPath);
        let got = Buffer.alloc(0);
        let rest = false;
        socket.on("data", (chunk: Buffer) => {
          got = Buffer.concat([got, chunk]);
          if (!rest && got.length >= reply.length) {
            rest = true;
            socket.write(everyByte);
            socket.write(bulk);
          }
          if (got.length >= reply.length + serverHello.length + sent.length) {
            socket.end();
            resolve(got);
          }
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(got));
        socket.write(
          Buffer.concat([Buffer.from(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: x\r\n\r\n`), clientHello]),
        );
      });
      expect(received.subarray(0, reply.length).toString("latin1")).toBe(reply);
      expect(received.subarray(reply.length).equals(Buffer.concat([serverHello, sent]))).toBe(true);
      expect(serverGot.equals(sent)).toBe(true);
    } finally {
      await gate.close();
      gate = undefined;
      await new Promise<void>((done) => tls.close(() => done()));
    }
  });

  it("refuses any other host with 403 and records it, once", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["api.anthropic.com"] });
    const reply = await converse(socketPath, `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 403 /);
    await converse(socketPath, "CONNECT evil.example:443 HTTP/1.1\r\n\r\n");
    await converse(socketPath, "CONNECT evil.example:443 HTTP/1.1\r\n\r\n");
    await converse(socketPath, "GET http://plain.example/steal HTTP/1.1\r\n\r\n");
    expect(gate.refusedHosts()).toEqual(["127.0.0.1", "evil.example", "plain.example"]);
  });

  it("sends every connection of a simulator run to its one target", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "target", host: "127.0.0.1", port: targetPort });
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(socketPath, () => socket.write("ping"));
      socket.on("data", (chunk) => {
        resolve(chunk.toString());
        socket.end();
      });
    });
    expect(reply).toBe("echo: ping");
  });

  it("reads the host of a proxy request's first line", () => {
    expect(requestTarget("CONNECT API.Anthropic.com:443 HTTP/1.1")).toEqual({
      method: "CONNECT",
      host: "api.anthropic.com",
      port: 443,
    });
    expect(requestTarget("CONNECT [::1]:8080 HTTP/1.1")?.host).toBe("::1");
    expect(requestTarget("GET http://example.com/x HTTP/1.1")).toEqual({
      method: "GET",
      host: "example.com",
      port: 80,
    });
    expect(requestTarget("nonsense")).toBeUndefined();
  });
});
