import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedReply {
  status: number;
  body: string | object;
  headers?: Record<string, string>;
}

export interface ScriptedEndpoint {
  url: string;
  /** The JSON bodies received, in order. */
  requests: Record<string, unknown>[];
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

/** A real HTTP server on loopback that answers each request with the next reply (the last one repeats). */
export async function scriptedEndpoint(replies: ScriptedReply[]): Promise<ScriptedEndpoint> {
  const requests: Record<string, unknown>[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push(JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>);
      headers.push(req.headers);
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)]!;
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function chatReply(content: string): ScriptedReply {
  return {
    status: 200,
    body: {
      id: "chatcmpl-test",
      object: "chat.completion",
      model: "local-model",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 },
    },
  };
}
