import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  answerFailure,
  BodyTooLarge,
  closeServer,
  fileHeaders,
  listenOnLoopback,
  listenPreferring,
  readBody,
  readJsonBody,
  sendError,
  sendHtml,
  sendJson,
} from "../../src/report/http-io.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await closeServer(server);
});

async function serve(handler: Handler): Promise<number> {
  const server = createServer((req, res) => void handler(req, res));
  servers.push(server);
  return listenOnLoopback(server, 0);
}

function send(
  port: number,
  options: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method: options.method ?? "GET", path: "/", headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const common = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
};

const bodyOf = (text: string) => Readable.from([Buffer.from(text)]) as unknown as IncomingMessage;

describe("the answers", () => {
  it("sends JSON with its length and the safety headers", async () => {
    const port = await serve((_req, res) => sendJson(res, 201, { word: "é" }));
    const answer = await send(port);
    expect(answer.status).toBe(201);
    expect(answer.body).toBe('{"word":"é"}');
    expect(answer.headers).toMatchObject({
      ...common,
      "content-type": "application/json; charset=utf-8",
      "content-length": "13",
    });
  });

  it("sends an error as {error}", async () => {
    const port = await serve((_req, res) => sendError(res, 418, "no tea"));
    const answer = await send(port);
    expect(answer.status).toBe(418);
    expect(JSON.parse(answer.body)).toEqual({ error: "no tea" });
  });

  it("sends a page with its policy, never framed", async () => {
    const port = await serve((_req, res) => sendHtml(res, "<p>ü</p>", "default-src 'none'"));
    const answer = await send(port);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("<p>ü</p>");
    expect(answer.headers).toMatchObject({
      ...common,
      "content-type": "text/html; charset=utf-8",
      "content-length": "9",
      "content-security-policy": "default-src 'none'",
      "x-frame-options": "DENY",
    });
  });
});

describe("fileHeaders", () => {
  it("serves an image inline in a sandbox", () => {
    expect(fileHeaders("chart.svg", 12, "image/svg+xml")).toEqual({
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "Content-Length": 12,
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "Content-Type": "image/svg+xml",
    });
  });

  it("serves anything else as a download, its name made safe for the plain filename", () => {
    const headers = fileHeaders('a "b"\\ré sumé.txt', 3, undefined);
    expect(headers["Content-Type"]).toBe("application/octet-stream");
    expect(headers["Content-Disposition"]).toBe(
      `attachment; filename="a _b__r_ sum_.txt"; filename*=UTF-8''${encodeURIComponent('a "b"\\ré sumé.txt')}`,
    );
    expect(fileHeaders("~x!.log", 1, undefined)["Content-Disposition"]).toMatch(
      /^attachment; filename="~x!.log";/,
    );
  });
});

describe("readBody", () => {
  it("reads a body of exactly the limit, and refuses one byte more", async () => {
    expect(await readBody(bodyOf("abcd"), 4)).toBe("abcd");
    const over = readBody(bodyOf("abcde"), 4);
    await expect(over).rejects.toThrow(BodyTooLarge);
    await expect(readBody(bodyOf("abcde"), 4)).rejects.toThrow("body over 4 bytes");
  });

  it("joins the chunks as UTF-8", async () => {
    const split = Buffer.from("añb");
    const req = Readable.from([split.subarray(0, 2), split.subarray(2)]) as unknown as IncomingMessage;
    expect(await readBody(req, 100)).toBe("añb");
  });

  it("names itself BodyTooLarge", () => {
    expect(new BodyTooLarge("x").name).toBe("BodyTooLarge");
  });
});

describe("readJsonBody", () => {
  const schema = z.strictObject({ n: z.number() });

  async function post(contentType: string | undefined, body: string, maxBytes = 100) {
    let parsed: unknown = "unset";
    const port = await serve(async (req, res) => {
      parsed = await readJsonBody(req, res, schema, maxBytes);
      if (parsed !== undefined) sendJson(res, 200, parsed);
    });
    const headers: Record<string, string> = contentType === undefined ? {} : { "Content-Type": contentType };
    const answer = await send(port, { method: "POST", body, headers });
    return { ...answer, error: answer.status === 200 ? undefined : JSON.parse(answer.body).error, parsed };
  }

  it.each([
    "application/json",
    "APPLICATION/JSON",
    "application/json; charset=utf-8",
    "application/json ;charset=utf-8",
    "application/json  ",
  ])("takes Content-Type %s", async (type) => {
    const answer = await post(type, '{"n":3}');
    expect(answer.status).toBe(200);
    expect(answer.parsed).toEqual({ n: 3 });
  });

  it.each([
    "text/plain",
    "application/jsonp",
    "text/application/json",
    "application/json-seq",
    "xapplication/json",
  ])("refuses Content-Type %s with 415", async (type) => {
    const answer = await post(type, '{"n":3}');
    expect(answer.status).toBe(415);
    expect(answer.error).toBe("expected Content-Type: application/json");
    expect(answer.parsed).toBeUndefined();
  });

  it("refuses a body without a Content-Type with 415", async () => {
    expect((await post(undefined, '{"n":3}')).status).toBe(415);
  });

  it("refuses a body over the limit with 413, naming it", async () => {
    const answer = await post("application/json", '{"n":12345}', 10);
    expect(answer.status).toBe(413);
    expect(answer.error).toBe("body over 10 bytes");
  });

  it("refuses a body that is not JSON, or not of the schema, with 400", async () => {
    const broken = await post("application/json", "{n:");
    expect(broken.status).toBe(400);
    expect(broken.error).toBe("body: not valid JSON");
    const wrong = await post("application/json", '{"n":"3","x":1}');
    expect(wrong.status).toBe(400);
    expect(wrong.error).toBe("n: Invalid input: expected number, received string; body: unknown field(s) x");
  });

  it("lets an error other than the size escape", async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error("socket gone"));
      },
    }) as unknown as IncomingMessage;
    (failing as { headers: Record<string, string> }).headers = { "content-type": "application/json" };
    const res = { writeHead: () => res, end: () => res } as unknown as ServerResponse;
    await expect(readJsonBody(failing, res, schema, 100)).rejects.toThrow("socket gone");
  });
});

describe("listening", () => {
  it("listens on 127.0.0.1 only, on a free port when asked for 0, and leaves no listener behind", async () => {
    const server = createServer();
    servers.push(server);
    const before = [server.listenerCount("error"), server.listenerCount("listening")];
    const port = await listenOnLoopback(server, 0);
    expect(port).toBeGreaterThan(0);
    expect(server.address()).toMatchObject({ address: "127.0.0.1", port });
    expect([server.listenerCount("error"), server.listenerCount("listening")]).toEqual(before);
  });

  it("rejects a taken port and leaves no listener behind", async () => {
    const holder = createServer();
    servers.push(holder);
    const port = await listenOnLoopback(holder, 0);
    const second = createServer();
    const before = [second.listenerCount("error"), second.listenerCount("listening")];
    await expect(listenOnLoopback(second, port)).rejects.toMatchObject({ code: "EADDRINUSE" });
    expect([second.listenerCount("error"), second.listenerCount("listening")]).toEqual(before);
  });

  it("prefers the asked port when free, else takes another, and lets other errors through", async () => {
    const probe = createServer();
    const free = await listenOnLoopback(probe, 0);
    await closeServer(probe);
    const first = createServer();
    servers.push(first);
    expect(await listenPreferring(first, free)).toEqual({ port: free, portWasTaken: false });
    const second = createServer();
    servers.push(second);
    const other = await listenPreferring(second, free);
    expect(other.portWasTaken).toBe(true);
    expect(other.port).not.toBe(free);
    expect(other.port).toBeGreaterThan(0);
    const any = createServer();
    servers.push(any);
    const picked = await listenPreferring(any, undefined);
    expect(picked.portWasTaken).toBe(false);
    expect(picked.port).toBeGreaterThan(0);
    await expect(listenPreferring(createServer(), 70_000)).rejects.toMatchObject({
      code: "ERR_SOCKET_BAD_PORT",
    });
  });

  it("takes another port when the asked one may not be taken (EACCES, a low port without root)", async () => {
    const server = createServer();
    servers.push(server);
    const listen = server.listen.bind(server);
    const asked: unknown[] = [];
    server.listen = ((port: number, host: string) => {
      asked.push(port);
      if (asked.length > 1) return listen(port, host);
      const denied = Object.assign(new Error("listen EACCES: permission denied 127.0.0.1:80"), {
        code: "EACCES",
      });
      process.nextTick(() => server.emit("error", denied));
      return server;
    }) as typeof server.listen;
    const picked = await listenPreferring(server, 80);
    expect(asked).toEqual([80, 0]);
    expect(picked.portWasTaken).toBe(true);
    expect(picked.port).toBeGreaterThan(0);
    expect(server.address()).toMatchObject({ address: "127.0.0.1", port: picked.port });
  });

  it("closes with a request still waiting for its answer", async () => {
    const server = createServer(() => undefined);
    const port = await listenOnLoopback(server, 0);
    const waiting = send(port).catch((error: Error) => error);
    await new Promise((resolve) => server.once("request", resolve));
    await closeServer(server);
    expect(server.listening).toBe(false);
    expect(await waiting).toBeInstanceOf(Error);
  });
});

describe("answerFailure", () => {
  it("answers 500 naming the error, before the answer began", async () => {
    const port = await serve((_req, res) => answerFailure(res, new Error("disk gone")));
    const answer = await send(port);
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body).error).toBe("internal error: disk gone");
    const other = await serve((_req, res) => answerFailure(res, "plain words"));
    expect(JSON.parse((await send(other)).body).error).toBe("internal error: plain words");
  });

  it("drops the connection once the answer began", async () => {
    const port = await serve((_req, res) => {
      res.writeHead(200, { "Content-Length": 100 });
      res.write("part");
      answerFailure(res, new Error("late"));
    });
    await expect(send(port)).rejects.toThrow();
  });
});
