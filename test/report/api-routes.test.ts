import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileUrl } from "../../src/report/api-routes.js";
import { readWorkspaceView } from "../../src/report/iteration-data.js";
import { startViewServer, type ViewServer } from "../../src/report/server.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { tempDir, writeFakeIteration, writeFiles } from "./workspace-fixture.js";

// The viewer's API routes, answered by the real server in process: the JSON each answers, and what each refuses.
// test/report/server-checks.test.ts covers who may talk to the server and the routing; this file the routes' edges.
let ws: Awaited<ReturnType<typeof tempDir>>;
let server: ViewServer;
const root = () => join(ws.dir, "routes-workspace");
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
const catalogRun = (dir: string, i: number) => ({
  owner: "alpha",
  query: `query ${i}`,
  should_trigger: true,
  run_number: i,
  fired: "alpha",
  loaded: ["alpha"],
  outcome: "success",
  dir,
});

beforeAll(async () => {
  ws = await tempDir("skillgym-api-routes-");
  await writeFakeIteration(join(root(), "iteration-1"), {
    evals: 1,
    runsPerConfiguration: 1,
    outputs: () => ({ "chart.png": png, "a b é.txt": "spaced\n" }),
  });
  await writeFakeIteration(join(root(), "iteration-3"), { evals: 1, runsPerConfiguration: 1 });
  await writeFiles(root(), {
    "catalog-1/catalog.json": JSON.stringify({
      dir: "/skills",
      agent: { name: "claude-code" },
      simulated: true,
      runs_per_query: 1,
      skills: [],
      confusion: {},
      pairs: [],
      runs: [catalogRun("alpha/query-1/run-1", 1), catalogRun("alpha/query-1/run-2", 2)],
      errors: 0,
      notes: [],
    }),
    "catalog-1/alpha/query-1/run-1/transcript.md": "# catalog run\nfired alpha\n",
    "catalog-1/alpha/query-1/run-2/transcript.md/inside.txt": "a folder where the transcript should be",
  });
  server = await startViewServer({ folder: root() });
});

afterAll(async () => {
  await server?.close();
  await ws?.cleanup();
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function send(method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = body === undefined ? {} : { "Content-Type": "application/json" };
    const req = request({ host: "127.0.0.1", port: server.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const get = (path: string) => send("GET", path);
const errorOf = (answer: Answer) => JSON.parse(answer.body).error as string;
const run = "eval-e1%2Fwith_skill%2Frun-1";

describe("fileUrl", () => {
  it("names a file by its path under the workspace root, every part encoded", () => {
    expect(fileUrl("iteration-1/eval-e1/a b é.txt")).toBe(
      "/api/file?path=iteration-1%2Feval-e1%2Fa%20b%20%C3%A9.txt",
    );
  });
});

describe("GET /api/workspace", () => {
  it("answers the workspace view", async () => {
    const answer = await get("/api/workspace");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    const expected = await readWorkspaceView(createViewReader(server.target));
    expect(JSON.parse(answer.body)).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(JSON.parse(answer.body).shown).toEqual([1, 3]);
  });
});

describe("an iteration's number", () => {
  it.each(["1", "01", "000000001"])("reads %s as iteration 1", async (number) => {
    const answer = await get(`/api/run?iteration=${number}&run=${run}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).id).toBe("eval-e1/with_skill/run-1");
  });

  it.each(["1e0", "+1", "0x1", "%201", "1%20", "1.", "", "0000000001"])(
    "refuses %s, though a number could be read from it",
    async (number) => {
      const answer = await get(`/api/run?iteration=${number}&run=${run}`);
      expect(answer.status).toBe(400);
      expect(errorOf(answer)).toBe("iteration: expected the number of an iteration (and agent) in this view");
    },
  );

  it("answers an iteration by its number, and 404 for a number the view does not show", async () => {
    const three = await get("/api/iteration/3");
    expect(three.status).toBe(200);
    expect(JSON.parse(three.body).runs.map((r: { id: string }) => r.id)).toEqual([
      "eval-e1/with_skill/run-1",
      "eval-e1/without_skill/run-1",
    ]);
    for (const number of ["2", "1e0", "0x3"]) {
      const answer = await get(`/api/iteration/${number}`);
      expect(answer.status).toBe(404);
      expect(errorOf(answer)).toBe(`no iteration ${number} in this view`);
    }
  });
});

describe("GET /api/file", () => {
  const outputs = "iteration-1/eval-e1/with_skill/run-1/outputs";

  it("serves an image inline with its type and length", async () => {
    const answer = await get(`/api/file?path=${encodeURIComponent(`${outputs}/chart.png`)}`);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("image/png");
    expect(answer.headers["content-length"]).toBe(String(png.length));
    expect(answer.headers["content-disposition"]).toBeUndefined();
  });

  it("serves another file as a download named after it", async () => {
    const answer = await get(fileUrl(`${outputs}/a b é.txt`));
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("spaced\n");
    expect(answer.headers["content-type"]).toBe("application/octet-stream");
    expect(answer.headers["content-disposition"]).toBe(
      `attachment; filename="a b _.txt"; filename*=UTF-8''${encodeURIComponent("a b é.txt")}`,
    );
  });

  it("answers the error of a path it refuses", async () => {
    const answer = await get("/api/file?path=..%2Fx");
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ error: "path: outside the workspace" });
  });
});

describe("GET /api/catalog-transcript", () => {
  it("answers a run's transcript as JSON", async () => {
    const answer = await get("/api/catalog-transcript?catalog=catalog-1&run=alpha%2Fquery-1%2Frun-1");
    expect(answer.status).toBe(200);
    const text = "# catalog run\nfired alpha\n";
    expect(JSON.parse(answer.body)).toEqual({ transcript: { text, size: text.length, truncated: false } });
  });

  it("answers a transcript.md that is a folder as none, and will not send it", async () => {
    const query = "catalog=catalog-1&run=alpha%2Fquery-1%2Frun-2";
    const json = await get(`/api/catalog-transcript?${query}`);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body)).toEqual({ transcript: null });
    const raw = await get(`/api/catalog-transcript?${query}&raw=1`);
    expect(raw.status).toBe(404);
    expect(errorOf(raw)).toBe("no transcript.md for alpha/query-1/run-2");
  });

  it("answers JSON unless raw is exactly 1", async () => {
    const answer = await get(
      "/api/catalog-transcript?catalog=catalog-1&run=alpha%2Fquery-1%2Frun-1&raw=true",
    );
    expect(JSON.parse(answer.body).transcript.text).toBe("# catalog run\nfired alpha\n");
  });

  it("answers the refusal of a catalog or run it does not hold", async () => {
    const unknown = await get("/api/catalog-transcript?catalog=catalog-9&run=alpha%2Fquery-1%2Frun-1");
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown)).toBe("no catalog catalog-9 in this view");
    const noRun = await get("/api/catalog-transcript?catalog=catalog-1");
    expect(noRun.status).toBe(400);
    expect(errorOf(noRun)).toBe("run: expected <owner>/query-<i>/run-<k>");
  });
});

describe("POST /api/feedback", () => {
  const post = (body: unknown) => send("POST", "/api/feedback", JSON.stringify(body));

  it("refuses feedback on an iteration the view does not show, naming the agent only when given", async () => {
    const plain = await post({ iteration: 9, status: "complete" });
    expect(plain.status).toBe(400);
    expect(errorOf(plain)).toBe("iteration: no iteration 9 in this view");
    expect(errorOf(await post({ iteration: 9, agent: "codex", status: "complete" }))).toBe(
      "iteration: no iteration 9 of agent codex in this view",
    );
  });

  it("saves feedback and a status together, and answers what was saved", async () => {
    const answer = await post({
      iteration: 3,
      run_id: "eval-e1-with_skill-run-1",
      feedback: "short and right",
      status: "complete",
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ ok: true, reviews: 1, status: "complete" });
    const saved = JSON.parse(await readFile(join(root(), "iteration-3", "feedback.json"), "utf8"));
    expect(saved.status).toBe("complete");
    expect(saved.reviews).toEqual([
      {
        run_id: "eval-e1-with_skill-run-1",
        feedback: "short and right",
        timestamp: saved.reviews[0].timestamp,
      },
    ]);
    const unmarked = await post({
      iteration: 3,
      run_id: "eval-e1-with_skill-run-1",
      grade: { text: "assertion 1 of eval e1", verdict: "right" },
    });
    expect(JSON.parse(unmarked.body)).toEqual({ ok: true, reviews: 1, status: "complete" });
    const marked = JSON.parse(await readFile(join(root(), "iteration-3", "feedback.json"), "utf8"));
    expect(marked.reviews[0]).toMatchObject({
      feedback: "short and right",
      grades: [{ text: "assertion 1 of eval e1", verdict: "right" }],
    });
    await rm(join(root(), "iteration-3", "feedback.json"));
  });

  it("answers 500 naming a failure to save that is not the file's fault, and goes on serving", async () => {
    const file = join(root(), "iteration-3", "feedback.json");
    await mkdir(file);
    await writeFile(join(file, "inside.txt"), "a folder where feedback.json should be");
    try {
      const answer = await post({ iteration: 3, status: "complete" });
      expect(answer.status).toBe(500);
      expect(errorOf(answer)).toMatch(/^internal error: /);
    } finally {
      await rm(file, { recursive: true });
    }
    const again = await post({ iteration: 3, status: "in_progress" });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toEqual({ ok: true, reviews: 0, status: "in_progress" });
    await rm(file);
  });
});
