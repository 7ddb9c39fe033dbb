import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { z } from "zod";
import { describeIssues } from "./feedback-request.js";

const commonHeaders = {
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
};

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...commonHeaders,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, error: string): void {
  sendJson(res, status, { error });
}

export function sendHtml(res: ServerResponse, html: string, policy: string): void {
  res.writeHead(200, {
    ...commonHeaders,
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(html),
    "Content-Security-Policy": policy,
    "X-Frame-Options": "DENY",
  });
  res.end(html);
}

/** Headers for a file from a run: images inline in a sandbox (an SVG's scripts never run), the rest as downloads. */
export function fileHeaders(
  name: string,
  size: number,
  imageType: string | undefined,
): Record<string, string | number> {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return {
    ...commonHeaders,
    "Content-Length": size,
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    ...(imageType
      ? { "Content-Type": imageType }
      : {
          "Content-Type": "application/octet-stream",
          "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        }),
  };
}

export class BodyTooLarge extends Error {
  override readonly name = "BodyTooLarge";
}

export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new BodyTooLarge(`body over ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Listens on 127.0.0.1 only; resolves to the port actually taken (0 asks for any free one). */
export function listenOnLoopback(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, "127.0.0.1");
  });
}

/**
 * Reads a JSON request body and checks it against `schema`; on any problem answers 415, 413 or 400 itself and
 * returns undefined. Bodies are never trusted as they come.
 */
export async function readJsonBody<S extends z.ZodType>(
  req: IncomingMessage,
  res: ServerResponse,
  schema: S,
  maxBytes: number,
): Promise<z.output<S> | undefined> {
  // Stryker disable next-line StringLiteral: equivalent, no fallback text is a JSON content type
  if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
    sendError(res, 415, "expected Content-Type: application/json");
    return undefined;
  }
  let text: string;
  try {
    text = await readBody(req, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      sendError(res, 413, error.message);
      return undefined;
    }
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    sendError(res, 400, "body: not valid JSON");
    return undefined;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    sendError(res, 400, describeIssues(parsed.error));
    return undefined;
  }
  return parsed.data;
}

/** Listens on the asked port if it is free, else on any free port; never disturbs whoever holds the asked one. */
export async function listenPreferring(
  server: Server,
  port: number | undefined,
): Promise<{ port: number; portWasTaken: boolean }> {
  try {
    return { port: await listenOnLoopback(server, port ?? 0), portWasTaken: false };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EADDRINUSE" && code !== "EACCES") throw error;
    return { port: await listenOnLoopback(server, 0), portWasTaken: true };
  }
}

/** Ends the server and every open connection (long polls, keep-alive). */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** An error escaping a route becomes a 500 answer (or a dropped connection once the answer began), never a crash. */
export function answerFailure(res: ServerResponse, error: unknown): void {
  if (res.headersSent) res.destroy();
  else sendError(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
