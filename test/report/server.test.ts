import { readFile, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewServer, type ViewServer } from "../../src/report/index.js";
import { createSerialiser } from "../../src/report/server.js";
import { tempDir, writeFakeIteration, writeFiles } from "./workspace-fixture.js";

const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

let ws: Awaited<ReturnType<typeof tempDir>>;
let server: ViewServer;
const root = () => join(ws.dir, "demo-workspace");

beforeAll(async () => {
  ws = await tempDir();
  await writeFiles(ws.dir, { "outside.txt": "secret outside the workspace" });
  await writeFakeIteration(join(root(), "iteration-1"), {
    evals: 2,
    runsPerConfiguration: 2,
    outputs: () => ({ "notes.md": "# Notes\n", "chart.png": png }),
  });
  await symlink(
    join(ws.dir, "outside.txt"),
    join(root(), "iteration-1/eval-e1/with_skill/run-1/outputs/link.txt"),
  );
  server = await startViewServer({ folder: root() });
});

afterAll(async () => {
  await server?.close();
  await ws?.cleanup();
});

function send(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: server.port, method, path, headers: options.headers ?? {} },
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

const postJson = (body: unknown, headers: Record<string, string> = {}) =>
  send("POST", "/api/feedback", {
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });

const feedbackFile = () => join(root(), "iteration-1", "feedback.json");

describe("POST /api/feedback", () => {
  it("saves a review atomically into iteration-N/feedback.json and keeps the others", async () => {
    const first = await postJson({ iteration: 1, run_id: "eval-e1-with_skill-run-1", feedback: "too long" });
    expect(first.status).toBe(200);
    await postJson({ iteration: 1, run_id: "eval-e2-without_skill-run-2", feedback: "fine" });
    await postJson({ iteration: 1, run_id: "eval-e1-with_skill-run-1", feedback: "too long, and no hashes" });
    const saved = JSON.parse(await readFile(feedbackFile(), "utf8"));
    expect(saved.status).toBe("in_progress");
    expect(saved.reviews.map((r: { run_id: string; feedback: string }) => [r.run_id, r.feedback])).toEqual([
      ["eval-e1-with_skill-run-1", "too long, and no hashes"],
      ["eval-e2-without_skill-run-2", "fine"],
    ]);
    expect(Date.parse(saved.reviews[0].timestamp)).not.toBeNaN();

    const done = await postJson({ iteration: 1, status: "complete" });
    expect(done.status).toBe(200);
    expect(JSON.parse(await readFile(feedbackFile(), "utf8")).status).toBe("complete");
  });

  it("keeps every review when many are posted at once", async () => {
    const ids = ["e1", "e2"].flatMap((e) =>
      ["with_skill", "without_skill"].flatMap((c) => [1, 2].map((r) => `eval-${e}-${c}-run-${r}`)),
    );
    const answers = await Promise.all(
      ids.map((id) => postJson({ iteration: 1, run_id: id, feedback: `about ${id}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    const saved = JSON.parse(await readFile(feedbackFile(), "utf8"));
    expect(new Set(saved.reviews.map((r: { feedback: string }) => r.feedback))).toEqual(
      new Set(ids.map((id) => `about ${id}`)),
    );
  });

  it.each([
    ["not JSON", "{nope", /not valid JSON/],
    ["an array", [], /body/],
    ["no run_id or status", { iteration: 1 }, /run_id and feedback, or status/],
    ["feedback without run_id", { iteration: 1, feedback: "x" }, /run_id/],
    ["run_id without feedback", { iteration: 1, run_id: "eval-e1-with_skill-run-1" }, /feedback/],
    ["a number as feedback", { iteration: 1, run_id: "eval-e1-with_skill-run-1", feedback: 3 }, /feedback/],
    [
      "feedback over 10 000 characters",
      { iteration: 1, run_id: "eval-e1-with_skill-run-1", feedback: "x".repeat(10_001) },
      /feedback: at most 10000/,
    ],
    ["an unknown field", { iteration: 1, status: "complete", admin: true }, /unknown field.*admin/],
    ["an unknown status", { iteration: 1, status: "deleted" }, /status/],
    ["an unknown run", { iteration: 1, run_id: "eval-e9-with_skill-run-1", feedback: "x" }, /run_id: no run/],
    ["a path as run", { iteration: 1, run_id: "../../etc/passwd", feedback: "x" }, /run_id: no run/],
    ["an unknown iteration", { iteration: 7, status: "complete" }, /iteration: no iteration 7/],
    ["a text iteration", { iteration: "1", status: "complete" }, /iteration/],
  ])("refuses %s with 400 and writes nothing", async (_name, body, message) => {
    const before = await readFile(feedbackFile(), "utf8");
    const answer = await postJson(body);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatch(message);
    expect(await readFile(feedbackFile(), "utf8")).toBe(before);
  });

  it("refuses other content types, oversized bodies, other sites and GET", async () => {
    const body = JSON.stringify({ iteration: 1, status: "complete" });
    expect(
      (await send("POST", "/api/feedback", { body, headers: { "Content-Type": "text/plain" } })).status,
    ).toBe(415);
    expect((await postJson(`"${"x".repeat(70_000)}"`)).status).toBe(413);
    expect((await postJson(body, { Origin: "http://evil.example" })).status).toBe(403);
    expect((await send("GET", "/api/feedback")).status).toBe(405);
  });

  it("refuses to overwrite a feedback.json it cannot read", async () => {
    await writeFile(feedbackFile(), "{ broken");
    const answer = await postJson({ iteration: 1, status: "complete" });
    expect(answer.status).toBe(409);
    expect(JSON.parse(answer.body).error).toContain("feedback.json");
    expect(await readFile(feedbackFile(), "utf8")).toBe("{ broken");
    await writeFile(feedbackFile(), JSON.stringify({ reviews: [] }));
  });
});

describe("GET /api/file", () => {
  it.each([
    "../outside.txt",
    "iteration-1/../../outside.txt",
    "iteration-1/eval-e1/../../../outside.txt",
    "%2e%2e/outside.txt",
    "/etc/passwd",
    "..%2F..%2Fetc%2Fpasswd",
    "iteration-1/eval-e1/with_skill/run-1/outputs/link.txt",
  ])("refuses %s", async (path) => {
    const answer = await send(
      "GET",
      `/api/file?path=${path.startsWith("%") ? path : encodeURIComponent(path)}`,
    );
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain("secret");
  });

  it("serves an image with its content type and other files as downloads", async () => {
    const base = "iteration-1/eval-e1/with_skill/run-1/outputs";
    const image = await send("GET", `/api/file?path=${encodeURIComponent(`${base}/chart.png`)}`);
    expect(image.status).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["content-security-policy"]).toContain("sandbox");
    const notes = await send("GET", `/api/file?path=${encodeURIComponent(`${base}/notes.md`)}`);
    expect(notes.headers["content-type"]).toBe("application/octet-stream");
    expect(notes.headers["content-disposition"]).toMatch(/^attachment; filename="notes.md"/);
    expect(notes.body).toBe("# Notes\n");
    expect((await send("GET", `/api/file?path=${encodeURIComponent(`${base}/missing.md`)}`)).status).toBe(
      404,
    );
  });
});

describe("the read routes", () => {
  it("answers the workspace, an iteration and a run, and refuses what does not exist", async () => {
    const workspace = JSON.parse((await send("GET", "/api/workspace")).body);
    expect(workspace.iterations.map((it: { name: string }) => it.name)).toEqual(["iteration-1"]);
    const iteration = JSON.parse((await send("GET", "/api/iteration/1")).body);
    expect(iteration.runs).toHaveLength(8);
    expect(iteration.benchmark.grid[0].assertions[1].cells).toEqual({
      with_skill: "11",
      without_skill: "00",
    });
    const run = JSON.parse((await send("GET", "/api/run?iteration=1&run=eval-e1%2Fwith_skill%2Frun-1")).body);
    expect(run.outputs.map((f: { path: string; kind: string }) => [f.path, f.kind])).toEqual([
      ["chart.png", "image"],
      ["notes.md", "markdown"],
    ]);
    expect((await send("GET", "/api/iteration/9")).status).toBe(404);
    expect((await send("GET", "/api/run?iteration=1&run=..%2F..%2Fetc")).status).toBe(400);
    expect((await send("GET", "/api/run?iteration=1&run=eval-e1%2Fwith_skill%2Frun-9")).status).toBe(404);
  });

  it("serves the page with a script-hash Content-Security-Policy and refuses a foreign Host", async () => {
    const page = await send("GET", "/");
    expect(page.headers["content-security-policy"]).toMatch(/script-src 'sha256-[^']+'/);
    expect((await send("GET", "/api/workspace", { headers: { Host: "evil.example" } })).status).toBe(403);
  });
});

describe("startViewServer", () => {
  it("takes another port when the asked one is busy, and leaves the other listener alone", async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const busy = (other.address() as { port: number }).port;
    const second = await startViewServer({ folder: root(), port: busy });
    try {
      expect(second.portWasTaken).toBe(true);
      expect(second.port).not.toBe(busy);
      expect(other.listening).toBe(true);
    } finally {
      await second.close();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it("answers by either name at its own port only, with the workspace's page", async () => {
    const own = await startViewServer({ folder: root() });
    const status = (headers: Record<string, string>, path = "/api/workspace") =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port: own.port, path, headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end();
      });
    try {
      expect(own.url).toBe(`http://127.0.0.1:${own.port}/`);
      expect(own.portWasTaken).toBe(false);
      expect(own.target.path).toBe(root());
      expect(await status({ Host: `127.0.0.1:${own.port}` })).toBe(200);
      expect(await status({ Host: `localhost:${own.port}`, Origin: `http://localhost:${own.port}` })).toBe(
        200,
      );
      expect(await status({ Host: `localhost:${server.port}` })).toBe(403);
      expect(await status({ Host: `127.0.0.1:${own.port}`, Origin: `http://127.0.0.1:${server.port}` })).toBe(
        403,
      );
      const page = await fetch(own.url);
      expect(page.headers.get("content-security-policy")).toMatch(
        /^default-src 'none'; .*; frame-ancestors 'none'$/,
      );
      expect(await page.text()).toContain("<title>skillgym — demo-workspace</title>");
    } finally {
      await own.close();
    }
  });

  it("refuses a folder that is not a workspace, naming it", async () => {
    await expect(startViewServer({ folder: join(ws.dir, "nope") })).rejects.toThrow(/nope: no such folder/);
    await expect(startViewServer({ folder: ws.dir })).rejects.toThrow(/nothing to show/);
  });
});

describe("the order of saves to one iteration", () => {
  const later = () => {
    let release = () => {};
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    return { done, release };
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it("runs them one after another as they came, after one that failed, and others beside them", async () => {
    const serialise = createSerialiser();
    const log: string[] = [];
    const [first, second] = [later(), later()];
    const failed = serialise("a", async () => {
      log.push("1 start");
      await first.done;
      log.push("1 end");
      throw new Error("the disk is full");
    });
    const saved = serialise("a", async () => {
      log.push("2 start");
      await second.done;
      log.push("2 end");
      return 2;
    });
    expect(await serialise("b", async () => "b")).toBe("b");
    first.release();
    await expect(failed).rejects.toThrow("the disk is full");
    await settle();
    // A save asked for while the second still runs waits for it.
    const third = serialise("a", async () => {
      log.push("3 start");
      return 3;
    });
    await settle();
    expect(log).toEqual(["1 start", "1 end", "2 start"]);
    second.release();
    expect([await saved, await third]).toEqual([2, 3]);
    expect(log).toEqual(["1 start", "1 end", "2 start", "2 end", "3 start"]);
  });
});
