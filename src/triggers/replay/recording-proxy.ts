import { createServer, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** One request the proxy passed on, as the agent sent it. */
export interface RecordedRequest {
  method: string;
  /** Path and query string. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecordingProxy {
  url: string;
  recorded: RecordedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    // Stryker disable next-line StringLiteral,CallExpression: equivalent, a request fails only when its client is gone, which reads no answer
    req.on("error", reject);
  });
}

// Headers a hop sets for itself; fetch sets them again for the upstream request.
const HOP = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "accept-encoding",
]);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * A local proxy in front of a model API: every request is recorded as it came and passed on unchanged to `upstream`
 * (its base URL's path kept in front), and the answer streamed back as it arrives.
 */
export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const recorded: RecordedRequest[] = [];
  const base = upstream.replace(/\/$/, "");
  const server = createServer((req, res) => {
    readBody(req)
      .then(async (bytes) => {
        // Stryker disable next-line StringLiteral: equivalent, a server's request always has a url
        const path = req.url ?? "/";
        const body = bytes.toString("utf8");
        // Stryker disable next-line StringLiteral: equivalent, a server's request always has a method
        recorded.push({ method: req.method ?? "GET", path, headers: req.headers, body });
        const hasBody = req.method !== "GET" && req.method !== "HEAD";
        const answer = await fetch(`${base}${path}`, {
          // Stryker disable next-line StringLiteral: equivalent, a server's request always has a method
          method: req.method ?? "GET",
          headers: forwardHeaders(req.headers),
          ...(hasBody ? { body: bytes } : {}),
        });
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!HOP.has(name) && name !== "content-encoding") headers[name] = value;
        });
        res.writeHead(answer.status, headers);
        if (answer.body) await pipeline(Readable.fromWeb(answer.body as never), res);
        else res.end();
      })
      .catch((error: unknown) => {
        // The upstream dropped mid-answer: the client's answer is cut off too (pipeline has ended it), as the
        // upstream cut it, and the proxy serves on.
        if (res.headersSent) return;
        res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    recorded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
