import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderTriggersPage, triggersPolicy } from "../../src/report/triggers-page.js";
import {
  maxTriggersBodyBytes,
  startTriggersServer,
  type TriggersServer,
} from "../../src/report/triggers-server.js";
import { tempDir } from "./workspace-fixture.js";

// The trigger-query review server, in process: what it reads, what it saves, and whom it answers.
let ws: Awaited<ReturnType<typeof tempDir>>;
let server: TriggersServer;
let file: string;

beforeAll(async () => {
  ws = await tempDir("skillgym-triggers-server-");
  file = join(ws.dir, "skill", "evals", "triggers.json");
  server = await startTriggersServer({ file });
});

afterAll(async () => {
  await server?.close();
  await ws?.cleanup();
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function send(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string>; port?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: options.port ?? server.port, method, path, headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
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

const json = (answer: Answer) => JSON.parse(answer.body) as Record<string, unknown>;
const get = (path: string, headers: Record<string, string> = {}) => send("GET", path, { headers });
const post = (body: unknown, headers: Record<string, string> = {}) =>
  send("POST", "/api/triggers", {
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });
const onDisk = async () => readFile(file, "utf8").catch(() => "none");

describe("startTriggersServer", () => {
  it("answers on 127.0.0.1 at the port it took, naming the file", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect(server.port).toBeGreaterThan(0);
    expect(server.portWasTaken).toBe(false);
    expect(server.file).toBe(file);
  });

  it("takes the asked port when free, and another when it is busy", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const busy = (holder.address() as { port: number }).port;
    const second = await startTriggersServer({ file, port: busy });
    try {
      expect(second.portWasTaken).toBe(true);
      expect(second.port).not.toBe(busy);
      expect(holder.listening).toBe(true);
      expect((await send("GET", "/api/triggers", { port: second.port })).status).toBe(200);
      const byName = { Host: `localhost:${second.port}`, Origin: `http://localhost:${second.port}` };
      expect((await send("GET", "/api/triggers", { port: second.port, headers: byName })).status).toBe(200);
      const foreign = { Host: `localhost:${server.port}` };
      expect((await send("GET", "/api/triggers", { port: second.port, headers: foreign })).status).toBe(403);
    } finally {
      await second.close();
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
    const third = await startTriggersServer({ file, port: busy });
    try {
      expect(third.port).toBe(busy);
      expect(third.portWasTaken).toBe(false);
      expect(third.url).toBe(`http://127.0.0.1:${busy}/`);
    } finally {
      await third.close();
    }
  });
});

describe("GET /api/triggers", () => {
  it("answers an empty list for a file not written yet", async () => {
    const answer = await get("/api/triggers");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(json(answer)).toEqual({ file, triggers: [] });
  });

  it("answers the file's queries, fields other tools wrote kept", async () => {
    const rows = [
      { query: "turn this csv into a table", should_trigger: true, note: "kept" },
      { query: "what is the weather", should_trigger: false },
    ];
    await mkdir(join(ws.dir, "skill", "evals"), { recursive: true });
    await writeFile(file, JSON.stringify(rows));
    try {
      const answer = await get("/api/triggers");
      expect(answer.status).toBe(200);
      expect(json(answer)).toEqual({ file, triggers: rows });
    } finally {
      await rm(file);
    }
  });

  it.each([
    ["not JSON", "[{nope", "not valid JSON; fix it by hand first"],
    [
      "not a list",
      '{"query":"x","should_trigger":true}',
      "body: Invalid input: expected array, received object",
    ],
    [
      "an empty query",
      '[{"query":"","should_trigger":true}]',
      "0.query: Too small: expected string to have >=1 characters",
    ],
  ])("answers 409 naming the file when it is %s", async (_name, text, problem) => {
    await mkdir(join(ws.dir, "skill", "evals"), { recursive: true });
    await writeFile(file, text);
    try {
      const answer = await get("/api/triggers");
      expect(answer.status).toBe(409);
      expect(json(answer)).toEqual({ file, error: `${file}: ${problem}` });
    } finally {
      await rm(file);
    }
  });

  it("answers 500 when the file cannot be read, naming the reason", async () => {
    await mkdir(file, { recursive: true });
    try {
      const answer = await get("/api/triggers");
      expect(answer.status).toBe(500);
      expect(json(answer).error).toMatch(/^internal error: EISDIR/);
    } finally {
      await rm(file, { recursive: true });
    }
  });
});

describe("POST /api/triggers", () => {
  it("saves the queries, creating the folders, and answers how many", async () => {
    const rows = [
      { query: "make a table of sales.csv", should_trigger: true },
      { query: "</script><b>x</b>", should_trigger: false },
    ];
    const answer = await post(rows);
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({ ok: true, count: 2 });
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(rows);
    expect(json(await get("/api/triggers"))).toEqual({ file, triggers: rows });
    const empty = await post([]);
    expect(json(empty)).toEqual({ ok: true, count: 0 });
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual([]);
  });

  it("keeps one of several saves sent at once, written whole", async () => {
    const saves = [1, 2, 3, 4, 5].map((n) =>
      Array.from({ length: n }, (_, i) => ({ query: `query ${n}.${i}`, should_trigger: i % 2 === 0 })),
    );
    const answers = await Promise.all(saves.map((rows) => post(rows)));
    expect(answers.map((a) => json(a))).toEqual(saves.map((rows) => ({ ok: true, count: rows.length })));
    // The requests may arrive in any order; whichever was saved last is on disk whole.
    expect(saves).toContainEqual(JSON.parse(await readFile(file, "utf8")));
  });

  it("goes on saving after a save that failed", async () => {
    await rm(join(ws.dir, "skill"), { recursive: true, force: true });
    await writeFile(join(ws.dir, "skill"), "a file where the folder should be");
    try {
      const failed = await post([{ query: "q", should_trigger: true }]);
      expect(failed.status).toBe(500);
      expect(json(failed).error).toMatch(/^internal error: /);
    } finally {
      await rm(join(ws.dir, "skill"));
    }
    const saved = await post([{ query: "after", should_trigger: true }]);
    expect(saved.status).toBe(200);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual([{ query: "after", should_trigger: true }]);
  });

  it.each([
    ["not JSON", "[{nope", 400, "body: not valid JSON"],
    [
      "an object",
      { query: "x", should_trigger: true },
      400,
      "body: Invalid input: expected array, received object",
    ],
    [
      "a text flag",
      [{ query: "x", should_trigger: "yes" }],
      400,
      "0.should_trigger: Invalid input: expected boolean, received string",
    ],
  ])("refuses %s with %i and writes nothing", async (_name, body, status, error) => {
    const before = await onDisk();
    const answer = await post(body);
    expect(answer.status).toBe(status);
    expect(json(answer)).toEqual({ error });
    expect(await onDisk()).toBe(before);
  });

  it("refuses another content type with 415, and a body over its limit with 413", async () => {
    const before = await onDisk();
    const plain = await post("[]", { "Content-Type": "text/plain" });
    expect(plain.status).toBe(415);
    const big = await post(`"${"x".repeat(maxTriggersBodyBytes)}"`);
    expect(big.status).toBe(413);
    expect(json(big)).toEqual({ error: `body over ${maxTriggersBodyBytes} bytes` });
    expect(maxTriggersBodyBytes).toBe(1_000_000);
    expect(await onDisk()).toBe(before);
  });
});

describe("who may talk to it", () => {
  it("answers Host 127.0.0.1 and localhost at its port", async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`])
      expect((await get("/api/triggers", { Host: host })).status).toBe(200);
  });

  it.each(["evil.example", `localhost:${1}`, "127.0.0.1", "127.0.0.1:1"])("refuses Host %s", async (host) => {
    const answer = await get("/api/triggers", { Host: host });
    expect(answer.status).toBe(403);
    expect(json(answer)).toEqual({ error: "this server answers on 127.0.0.1 only" });
  });

  it("takes a save from its own page by either name, and refuses any other origin", async () => {
    for (const origin of [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`])
      expect((await post([], { Origin: origin })).status).toBe(200);
    const before = await onDisk();
    for (const origin of [
      "http://evil.example",
      `https://127.0.0.1:${server.port}`,
      `http://localhost:${server.port + 1}`,
      `http://http://127.0.0.1:${server.port}`,
      `127.0.0.1:${server.port}http://`,
      "null",
    ]) {
      const answer = await post([{ query: "x", should_trigger: true }], { Origin: origin });
      expect(answer.status).toBe(403);
      expect(json(answer)).toEqual({ error: "requests from other sites are refused" });
    }
    expect(await onDisk()).toBe(before);
  });
});

describe("the page and other routes", () => {
  it("serves the page at / and /index.html, titled with the file, under its policy", async () => {
    for (const path of ["/", "/index.html", "/?x=1"]) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(page.headers["content-security-policy"]).toBe(triggersPolicy());
      expect(page.headers["x-frame-options"]).toBe("DENY");
      expect(page.body).toBe(renderTriggersPage(`skillgym — ${file}`));
    }
  });

  it("answers the favicon with no content", async () => {
    const answer = await get("/favicon.ico");
    expect(answer.status).toBe(204);
    expect(answer.body).toBe("");
  });

  it("names the methods a route takes", async () => {
    for (const method of ["PUT", "DELETE"]) {
      const answer = await send(method, "/api/triggers");
      expect(answer.status).toBe(405);
      expect(json(answer)).toEqual({ error: "GET or POST only" });
    }
    for (const path of ["/", "/favicon.ico", "/nope"]) {
      const answer = await send("POST", path);
      expect(answer.status).toBe(405);
      expect(json(answer)).toEqual({ error: "GET only" });
    }
  });

  it.each(["/nope", "/api/triggers/", "/index.htm", "/api/workspace"])(
    "answers 404 for %s, naming its path",
    async (path) => {
      const answer = await get(`${path}?q=1`);
      expect(answer.status).toBe(404);
      expect(json(answer)).toEqual({ error: `no route ${path}` });
    },
  );
});
