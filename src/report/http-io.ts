import type { IncomingMessage, ServerResponse } from "node:http";

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
