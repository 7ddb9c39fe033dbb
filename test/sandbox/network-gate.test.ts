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

const FORBIDDEN = "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

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
    expect(reply).toBe(FORBIDDEN);
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

  it("answers 403 to a request to an allowed host that is not a CONNECT, and to an unreadable one", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["127.0.0.1"] });
    expect(await converse(socketPath, `GET http://127.0.0.1:${targetPort}/ HTTP/1.1\r\n\r\n`)).toBe(
      FORBIDDEN,
    );
    expect(await converse(socketPath, "\r\n\r\n")).toBe(FORBIDDEN);
    expect(gate.refusedHosts()).toEqual(["127.0.0.1", "(unreadable request)"]);
  });

  it("allows the named hosts whatever their case", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["LocalHost"] });
    const reply = await converse(socketPath, `CONNECT localHOST:${targetPort} HTTP/1.1\r\n\r\n`, "hello");
    // Tunnelled (200), or 502 on a host where localhost is not 127.0.0.1: either way, not refused.
    expect(reply).toMatch(/^HTTP\/1\.1 (200|502) /);
    expect(gate.refusedHosts()).toEqual([]);
  });

  it("answers 502 when an allowed host cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const address = closed.address();
    const port = typeof address === "object" && address ? address.port : 0;
    await new Promise<void>((done) => closed.close(() => done()));
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["127.0.0.1"] });
    expect(await converse(socketPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`)).toBe(
      "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    expect(gate.refusedHosts()).toEqual([]);
  });

  it("reads a request that comes in pieces", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["127.0.0.1"] });
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(socketPath);
      let got = "";
      socket.on("data", (chunk) => {
        got += chunk.toString();
        if (got.includes("\r\n\r\n") && !got.includes("echo:")) socket.write("hello");
        if (got.includes("echo:")) socket.end();
      });
      socket.on("close", () => resolve(got));
      socket.on("error", reject);
      const pieces = ["CONN", `ECT 127.0.0.1:${targetPort} HTTP/1.1\r\n`, "Host: x\r\n", "\r\n"];
      const next = () => {
        const piece = pieces.shift();
        if (piece !== undefined) socket.write(piece, () => setTimeout(next, 20));
      };
      next();
    });
    expect(reply).toBe("HTTP/1.1 200 Connection Established\r\n\r\necho: hello");
  });

  it("drops a request whose header passes 16 KiB without an end, and records nothing", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["127.0.0.1"] });
    const reply = await converse(
      socketPath,
      `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nX: ${"a".repeat(17_000)}`,
    );
    expect(reply).toBe("");
    expect(gate.refusedHosts()).toEqual([]);
  });

  it("reads a header of exactly 16 KiB that ends in a later piece", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["127.0.0.1"] });
    const start = `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nX: `;
    const head = start + "a".repeat(16 * 1024 - start.length);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(socketPath);
      let got = "";
      socket.on("data", (chunk) => {
        got += chunk.toString();
        socket.end();
      });
      socket.on("close", () => resolve(got));
      socket.on("error", reject);
      socket.write(head, () => setTimeout(() => socket.write("\r\n\r\n"), 200));
    });
    expect(reply).toBe("HTTP/1.1 200 Connection Established\r\n\r\n");
  });

  it("carries a large first write, request and data together, byte for byte", {
    timeout: 30_000,
  }, async () => {
    let serverGot = Buffer.alloc(0);
    let ended: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const sink = createServer((socket) => {
      socket.on("data", (chunk) => {
        serverGot = Buffer.concat([serverGot, chunk]);
      });
      socket.on("end", () => ended());
      socket.on("close", () => ended());
    });
    await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
    const address = sink.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: ["127.0.0.1"] });
    const data = Buffer.alloc(1_000_000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) % 251;
    try {
      const socket = connect(socketPath);
      socket.on("error", () => {});
      socket.end(Buffer.concat([Buffer.from(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`), data]));
      await done;
      expect(serverGot.length).toBe(data.length);
      expect(serverGot.equals(data)).toBe(true);
    } finally {
      await gate.close();
      gate = undefined;
      await new Promise<void>((resolve) => sink.close(() => resolve()));
    }
  });

  it("fails to open on a socket path already taken", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: [] });
    await expect(openNetworkGate(socketPath, { kind: "connect", allowedHosts: [] })).rejects.toThrow(
      /EADDRINUSE/,
    );
  });

  it("ends both sides of the connections it carries when closed", async () => {
    let targetClosed: () => void = () => {};
    const targetSide = new Promise<void>((resolve) => {
      targetClosed = resolve;
    });
    const held = createServer((socket) => {
      socket.on("data", (chunk) => socket.write(`echo: ${chunk}`));
      socket.on("close", () => targetClosed());
    });
    await new Promise<void>((done) => held.listen(0, "127.0.0.1", done));
    const address = held.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "target", host: "127.0.0.1", port });
    try {
      const socket = connect(socketPath, () => socket.write("ping"));
      const clientSide = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      socket.on("error", () => {});
      await new Promise<void>((resolve) => socket.once("data", () => resolve()));
      await gate.close();
      gate = undefined;
      await clientSide;
      await targetSide;
    } finally {
      await new Promise<void>((done) => held.close(() => done()));
    }
  });

  it("closes a simulator run's connection when its target cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const address = closed.address();
    const port = typeof address === "object" && address ? address.port : 0;
    await new Promise<void>((done) => closed.close(() => done()));
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "target", host: "127.0.0.1", port });
    expect(await converse(socketPath, "ping")).toBe("");
  });

  it("stays up when a client goes before its answer", async () => {
    const socketPath = join(dir, "net.sock");
    gate = await openNetworkGate(socketPath, { kind: "connect", allowedHosts: [] });
    for (let i = 0; i < 5; i++) {
      const socket = connect(socketPath, () => {
        socket.write(`GET http://gone${i}.example/ HTTP/1.1\r\n\r\n`);
        socket.destroy();
      });
    }
    await expect.poll(() => gate?.refusedHosts().length, { timeout: 10_000 }).toBe(5);
    expect(await converse(socketPath, "CONNECT evil.example:443 HTTP/1.1\r\n\r\n")).toBe(FORBIDDEN);
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
    expect(requestTarget("")).toBeUndefined();
    expect(requestTarget(" http://example.com/ HTTP/1.1")).toBeUndefined();
    expect(requestTarget("CONNECT [::1]:8080 HTTP/1.1")).toEqual({
      method: "CONNECT",
      host: "::1",
      port: 8080,
    });
    expect(requestTarget("CONNECT host:4433 HTTP/1.1\r\nHost: other:1\r\n")).toEqual({
      method: "CONNECT",
      host: "host",
      port: 4433,
    });
    for (const bad of ["host", "host:", "host:443x", "host:x443", "]host:443", ":443"])
      expect(requestTarget(`CONNECT ${bad} HTTP/1.1`), bad).toBeUndefined();
    expect(requestTarget("GET http://Example.com:8080/x HTTP/1.1")).toEqual({
      method: "GET",
      host: "example.com",
      port: 8080,
    });
    expect(requestTarget("GET foo://Evil.Example/x HTTP/1.1")?.host).toBe("evil.example");
    expect(requestTarget("GET /relative HTTP/1.1")).toBeUndefined();
  });
});
