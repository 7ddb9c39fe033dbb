import { readFile, rm, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewServer, type ViewServer } from "../../src/report/index.js";
import {
  twoAgentsRecord as agentsRecord,
  tempDir,
  writeFakeIteration,
  writeFiles,
} from "./workspace-fixture.js";

// The viewer's server: who may talk to it, which routes answer what, and which files it serves.
let ws: Awaited<ReturnType<typeof tempDir>>;
let server: ViewServer;
const root = () => join(ws.dir, "checks-workspace");
const outputs = "iteration-1/eval-e1/with_skill/run-1/outputs";

const catalog = {
  dir: "/skills",
  agent: { name: "claude-code" },
  simulated: true,
  runs_per_query: 1,
  skills: [],
  confusion: {},
  pairs: [],
  runs: ["run-1", "run-2", "run-3"].map((run, i) => ({
    owner: "alpha",
    query: `query ${i}`,
    should_trigger: true,
    run_number: i + 1,
    fired: "alpha",
    loaded: ["alpha"],
    outcome: "success",
    dir: `alpha/query-1/${run}`,
  })),
  errors: 0,
  notes: [],
};

beforeAll(async () => {
  ws = await tempDir("skillgym-server-checks-");
  await writeFiles(ws.dir, { "outside.txt": "secret outside the workspace" });
  await writeFakeIteration(join(root(), "iteration-1"), {
    evals: 1,
    runsPerConfiguration: 1,
    outputs: () => ({ "..notes.md": "dots first\n", "sub/deep.txt": "deep\n" }),
  });
  for (const agent of ["claude-code", "codex"])
    await writeFakeIteration(join(root(), "iteration-2", agent), { evals: 1, runsPerConfiguration: 1 });
  await writeFiles(root(), {
    "iteration-2/iteration.json": JSON.stringify(agentsRecord),
    "catalog-1/catalog.json": JSON.stringify(catalog),
    "catalog-1/alpha/query-1/run-1/transcript.md": "# the catalog transcript\n",
    "catalog-1/alpha/query-1/run-3/.keep": "",
  });
  await symlink(join(ws.dir, "outside.txt"), join(root(), "catalog-1/alpha/query-1/run-3/transcript.md"));
  server = await startViewServer({ folder: root() });
});

afterAll(async () => {
  await server?.close();
  await ws?.cleanup();
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function send(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
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

const errorOf = (answer: Answer) => JSON.parse(answer.body).error as string;
const get = (path: string, headers: Record<string, string> = {}) => send("GET", path, { headers });
const post = (body: unknown, headers: Record<string, string> = {}) =>
  send("POST", "/api/feedback", {
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });
const file = (path: string) => get(`/api/file?path=${encodeURIComponent(path)}`);

describe("who may talk to the viewer", () => {
  it("answers on 127.0.0.1 and localhost at its own port", async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect((await get("/api/workspace", { Host: `localhost:${server.port}` })).status).toBe(200);
    expect((await get("/api/workspace", { Host: `127.0.0.1:${server.port}` })).status).toBe(200);
  });

  it.each([
    ["another site", "evil.example"],
    ["localhost at another port", "localhost:1"],
    ["127.0.0.1 at another port", "127.0.0.1:1"],
    ["no port", "127.0.0.1"],
  ])("refuses a Host of %s", async (_name, host) => {
    const answer = await get("/api/workspace", { Host: host });
    expect(answer.status).toBe(403);
    expect(errorOf(answer)).toBe("this server answers on 127.0.0.1 only");
  });

  it("takes a feedback post from its own page, by either name", async () => {
    for (const origin of [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`]) {
      const answer = await post({ iteration: 1, status: "in_progress" }, { Origin: origin });
      expect(answer.status).toBe(200);
    }
  });

  it.each([
    ["another localhost port", (port: number) => `http://localhost:${port + 1}`],
    ["another 127.0.0.1 port", (port: number) => `http://127.0.0.1:${port + 1}`],
    ["https at its port", (port: number) => `https://127.0.0.1:${port}`],
    ["another site", () => "http://evil.example"],
    ["a page of no origin", () => "null"],
    ["its host with a path before it", (port: number) => `http://evil.example/http://127.0.0.1:${port}`],
    ["its host with no scheme stripped twice", (port: number) => `http://http://127.0.0.1:${port}`],
    ["its host with the scheme after it", (port: number) => `127.0.0.1:${port}http://`],
  ])("refuses a feedback post from %s and writes nothing", async (_name, origin) => {
    const before = await readFile(join(root(), "iteration-1", "feedback.json"), "utf8").catch(() => "none");
    const answer = await post({ iteration: 1, status: "complete" }, { Origin: origin(server.port) });
    expect(answer.status).toBe(403);
    expect(errorOf(answer)).toBe("requests from other sites are refused");
    expect(await readFile(join(root(), "iteration-1", "feedback.json"), "utf8").catch(() => "none")).toBe(
      before,
    );
  });

  it("refuses a read from another site too", async () => {
    expect((await get("/api/workspace", { Origin: `http://localhost:${server.port + 1}` })).status).toBe(403);
    expect((await get("/api/workspace", { Origin: `http://localhost:${server.port}` })).status).toBe(200);
  });
});

describe("the routes", () => {
  it("serves the page at / and /index.html, titled for the workspace, never framed", async () => {
    for (const path of ["/", "/index.html", "/?tab=runs"]) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(page.body).toContain("<title>skillgym — checks-workspace</title>");
      expect(page.headers["content-security-policy"]).toMatch(/; frame-ancestors 'none'$/);
    }
  });

  it("answers the favicon with no content", async () => {
    const answer = await get("/favicon.ico");
    expect(answer.status).toBe(204);
    expect(answer.body).toBe("");
  });

  it("refuses other methods, naming the one it takes", async () => {
    const put = await send("PUT", "/api/workspace");
    expect(put.status).toBe(405);
    expect(errorOf(put)).toBe("GET only");
    const read = await get("/api/feedback");
    expect(read.status).toBe(405);
    expect(errorOf(read)).toBe("POST only");
    expect((await send("POST", "/")).status).toBe(405);
  });

  it.each([
    "/nope",
    "/api/iteration/1/extra",
    "/x/api/iteration/1",
    "/api/iteration/",
    "/api/workspace/",
    "/index.htm",
  ])("answers 404 for %s, naming it", async (path) => {
    const answer = await get(path);
    expect(answer.status).toBe(404);
    expect(errorOf(answer)).toMatch(/^no (route|iteration)/);
  });

  it("reads an iteration number of several digits from the path", async () => {
    const answer = await get("/api/iteration/12");
    expect(answer.status).toBe(404);
    expect(errorOf(answer)).toBe("no iteration 12 in this view");
  });

  it("answers an unknown route naming its path", async () => {
    expect(errorOf(await get("/nope?x=1"))).toBe("no route /nope");
  });

  it("answers the tunes and catalogs of the workspace", async () => {
    const tunes = await get("/api/tunes");
    expect(tunes.status).toBe(200);
    expect(JSON.parse(tunes.body)).toHaveProperty("tunes");
    const catalogs = await get("/api/catalogs");
    expect(catalogs.status).toBe(200);
    expect(JSON.parse(catalogs.body).catalogs.map((c: { name: string }) => c.name)).toEqual(["catalog-1"]);
  });

  it("answers an iteration by its number only", async () => {
    const answer = await get("/api/iteration/1");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).runs).toHaveLength(2);
    for (const bad of ["01x", "x", "1.0", "-1", "1234567890"]) {
      const refused = await get(`/api/iteration/${bad}`);
      expect(refused.status).toBe(404);
      expect(errorOf(refused)).toBe(`no iteration ${bad} in this view`);
    }
  });

  it("answers an iteration of several agents as the first agent's, or the one named", async () => {
    const first = JSON.parse((await get("/api/iteration/2")).body);
    expect(first.agent).toBe("claude-code");
    expect(first.agents).toEqual(["claude-code", "codex"]);
    expect(JSON.parse((await get("/api/iteration/2?agent=codex")).body).agent).toBe("codex");
    const unknown = await get("/api/iteration/2?agent=gemini");
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown)).toBe("no iteration 2 of agent gemini in this view");
    expect(errorOf(await get("/api/iteration/1?agent=codex"))).toBe(
      "no iteration 1 of agent codex in this view",
    );
  });

  it("answers a run, and names what is wrong with a request for one", async () => {
    const run = await get("/api/run?iteration=2&agent=codex&run=eval-e1%2Fwith_skill%2Frun-1");
    expect(run.status).toBe(200);
    const detail = JSON.parse(run.body);
    expect(detail.outputs[0].url).toBe(
      `/api/file?path=${encodeURIComponent("iteration-2/codex/eval-e1/with_skill/run-1/outputs/result.md")}`,
    );
    const noIteration = await get("/api/run?run=eval-e1%2Fwith_skill%2Frun-1");
    expect(noIteration.status).toBe(400);
    expect(errorOf(noIteration)).toBe(
      "iteration: expected the number of an iteration (and agent) in this view",
    );
    expect((await get("/api/run?iteration=1x&run=eval-e1%2Fwith_skill%2Frun-1")).status).toBe(400);
    const noRun = await get("/api/run?iteration=1");
    expect(noRun.status).toBe(400);
    expect(errorOf(noRun)).toBe("run: expected eval-<id>/<configuration>/run-<k>");
    const missing = await get("/api/run?iteration=1&run=eval-e1%2Fwith_skill%2Frun-9");
    expect(missing.status).toBe(404);
    expect(errorOf(missing)).toBe("no run eval-e1/with_skill/run-9 in iteration-1");
  });

  it("answers a catalog run's transcript as JSON, or as the file itself with raw=1", async () => {
    const query = "catalog=catalog-1&run=alpha%2Fquery-1%2Frun-1";
    const json = await get(`/api/catalog-transcript?${query}`);
    expect(json.status).toBe(200);
    expect(JSON.stringify(JSON.parse(json.body).transcript)).toContain("the catalog transcript");
    const raw = await get(`/api/catalog-transcript?${query}&raw=1`);
    expect(raw.status).toBe(200);
    expect(raw.body).toBe("# the catalog transcript\n");
    expect(raw.headers["content-disposition"]).toMatch(/^attachment; filename="transcript.md"/);
    expect(raw.headers["content-length"]).toBe(String(Buffer.byteLength("# the catalog transcript\n")));
  });

  it("refuses a catalog transcript that is not there or not the catalog's", async () => {
    const bad = await get("/api/catalog-transcript?catalog=..&run=alpha%2Fquery-1%2Frun-1");
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toBe("catalog: expected catalog-<N>");
    const absent = await get("/api/catalog-transcript?catalog=catalog-1&run=alpha%2Fquery-1%2Frun-2&raw=1");
    expect(absent.status).toBe(404);
    expect(errorOf(absent)).toBe("no transcript.md for alpha/query-1/run-2");
    const linked = await get("/api/catalog-transcript?catalog=catalog-1&run=alpha%2Fquery-1%2Frun-3&raw=1");
    expect(linked.status).toBe(404);
    expect(linked.body).not.toContain("secret");
  });
});

describe("GET /api/file", () => {
  it("serves a file inside an iteration, a name starting with dots included", async () => {
    const answer = await file(`${outputs}/..notes.md`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("dots first\n");
    expect(answer.headers["content-length"]).toBe("11");
    expect(answer.headers["content-disposition"]).toMatch(/^attachment; filename="..notes.md"/);
    expect((await file(`${outputs}/sub/../sub/deep.txt`)).body).toBe("deep\n");
  });

  it.each([
    ["no path", undefined, 400, "path: required"],
    ["an empty path", "", 400, "path: required"],
    ["a NUL", `${outputs}/..notes.md\0`, 403, "path: outside the workspace"],
    ["a backslash", `${outputs}\\..notes.md`, 403, "path: outside the workspace"],
    ["an absolute path", "/etc/hostname", 403, "path: outside the workspace"],
    ["the workspace itself", ".", 403, "path: outside the workspace"],
    ["an iteration folder", "iteration-1", 403, "path: outside the workspace"],
    ["an iteration folder with a slash", "iteration-1/", 403, "path: outside the workspace"],
    ["the workspace through an iteration", "iteration-1/..", 403, "path: outside the workspace"],
    ["a catalog's file", "catalog-1/catalog.json", 403, "path: outside the workspace"],
    ["a file next to the iterations", "../outside.txt", 403, "path: outside the workspace"],
    ["a folder of a run", `${outputs}/sub`, 404, `${outputs}/sub: no such file`],
    ["a missing file", `${outputs}/nope.md`, 404, `${outputs}/nope.md: no such file`],
  ])("refuses %s", async (_name, path, status, error) => {
    const answer = await get(path === undefined ? "/api/file" : `/api/file?path=${encodeURIComponent(path)}`);
    expect(answer.status).toBe(status);
    expect(errorOf(answer)).toBe(error);
  });

  it("refuses an absolute path, even to a file it would serve", async () => {
    const answer = await file(join(root(), outputs, "..notes.md"));
    expect(answer.status).toBe(403);
    expect(errorOf(answer)).toBe("path: outside the workspace");
  });

  it("refuses a link out of its iteration, even into another iteration", async () => {
    const link = join(root(), outputs, "other.md");
    await symlink(join(root(), "iteration-2/codex/eval-e1/with_skill/run-1/outputs/result.md"), link);
    try {
      const answer = await file(`${outputs}/other.md`);
      expect(answer.status).toBe(403);
      expect(errorOf(answer)).toBe("path: outside the workspace");
    } finally {
      await rm(link);
    }
  });
});

describe("POST /api/feedback", () => {
  const feedbackOf = async (dir: string) =>
    JSON.parse(await readFile(join(root(), dir, "feedback.json"), "utf8"));

  it("answers what it saved", async () => {
    const answer = await post({ iteration: 1, run_id: "eval-e1-with_skill-run-1", feedback: "good" });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ ok: true, reviews: 1, status: "in_progress" });
    const mark = await post({
      iteration: 1,
      run_id: "eval-e1-with_skill-run-1",
      grade: { text: "assertion 1 of eval e1", verdict: "wrong" },
    });
    expect(mark.status).toBe(200);
    const saved = await feedbackOf("iteration-1");
    expect(saved.reviews).toHaveLength(1);
    expect(saved.reviews[0].feedback).toBe("good");
    expect(saved.reviews[0].grades).toEqual([{ text: "assertion 1 of eval e1", verdict: "wrong" }]);
  });

  it("saves a review of one agent's run in that agent's folder", async () => {
    const answer = await post({
      iteration: 2,
      agent: "codex",
      run_id: "eval-e1-without_skill-run-1",
      feedback: "codex run",
      status: "complete",
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ ok: true, reviews: 1, status: "complete" });
    const saved = await feedbackOf("iteration-2/codex");
    expect(saved.status).toBe("complete");
    expect(saved.reviews.map((r: { run_id: string; feedback: string }) => [r.run_id, r.feedback])).toEqual([
      ["eval-e1-without_skill-run-1", "codex run"],
    ]);
    await expect(readFile(join(root(), "iteration-2/claude-code/feedback.json"))).rejects.toThrow();
  });

  it("refuses an agent the iteration did not run, naming it", async () => {
    const answer = await post({ iteration: 2, agent: "gemini", status: "complete" });
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toBe("iteration: no iteration 2 of agent gemini in this view");
    const plain = await post({ iteration: 9, status: "complete" });
    expect(errorOf(plain)).toBe("iteration: no iteration 9 in this view");
  });

  it("refuses a run of another iteration, naming the iteration", async () => {
    const answer = await post({
      iteration: 2,
      agent: "codex",
      run_id: "eval-e9-with_skill-run-1",
      feedback: "x",
    });
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toBe("run_id: no run eval-e9-with_skill-run-1 in iteration-2/codex");
  });

  it("answers 409 naming a feedback.json it cannot read, and leaves it", async () => {
    const path = join(root(), "iteration-2/claude-code/feedback.json");
    await writeFile(path, "[broken");
    const answer = await post({ iteration: 2, status: "complete" });
    expect(answer.status).toBe(409);
    expect(errorOf(answer)).toContain(path);
    expect(await readFile(path, "utf8")).toBe("[broken");
    await rm(path);
  });
});
