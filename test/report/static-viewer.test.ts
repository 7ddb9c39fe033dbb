import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeStaticReport } from "../../src/report/static-report.js";
import { renderStaticViewer, writeStaticViewer } from "../../src/report/static-viewer.js";
import type { StaticViewData } from "../../src/report/view-model.js";
import {
  twoAgentsRecord as agentsRecord,
  tempDir,
  writeFakeIteration,
  writeFiles,
} from "./workspace-fixture.js";

// The viewer as one HTML file (`skillgym view --html`, report.html): the data it embeds for a workspace on disk.
let ws: Awaited<ReturnType<typeof tempDir>>;
const root = () => join(ws.dir, "static-workspace");
// A smaller one, for what needs no more than one run: each render reads every run.
const small = () => join(ws.dir, "small-workspace");
const transcript = `# transcript\n${"said something\n".repeat(9)}`;
const catalogTranscript = `# the catalog transcript\n${"a line of the catalog run\n".repeat(20)}`;

const catalog = {
  dir: "/skills",
  agent: { name: "claude-code" },
  simulated: true,
  runs_per_query: 1,
  skills: [],
  confusion: {},
  pairs: [],
  runs: [
    {
      owner: "alpha",
      query: "query 1",
      should_trigger: true,
      run_number: 1,
      fired: "alpha",
      loaded: ["alpha"],
      outcome: "success",
      dir: "alpha/query-1/run-1",
    },
  ],
  errors: 0,
  notes: [],
};

beforeAll(async () => {
  ws = await tempDir("skillgym-static-viewer-");
  // 9 evals × 2 configurations × 2 runs: 36 runs, more than one batch of 32.
  await writeFakeIteration(join(root(), "iteration-1"), {
    evals: 9,
    runsPerConfiguration: 2,
    outputs: (e, configuration, run) => ({ "notes.md": `notes of e${e + 1} ${configuration} ${run}\n` }),
    transcript: (e) => `# transcript\n${"said something\n".repeat(e + 1)}`,
  });
  for (const agent of ["claude-code", "codex"])
    await writeFakeIteration(join(root(), "iteration-2", agent), {
      evals: 1,
      runsPerConfiguration: 1,
      outputs: () => ({ "result.md": `by ${agent}\n` }),
    });
  await writeFiles(root(), { "iteration-2/iteration.json": JSON.stringify(agentsRecord) });
  await writeFakeIteration(join(small(), "iteration-4"), {
    evals: 1,
    runsPerConfiguration: 1,
    outputs: (_e, configuration, run) => ({ "notes.md": `notes of e1 ${configuration} ${run}\n` }),
    transcript: () => transcript,
  });
  await writeFiles(small(), {
    "catalog-1/catalog.json": JSON.stringify(catalog),
    "catalog-1/alpha/query-1/run-1/transcript.md": catalogTranscript,
  });
});

afterAll(async () => {
  await ws?.cleanup();
});

function dataOf(html: string): StaticViewData {
  const match = /<script type="application\/json" id="skillgym-data">(.*?)<\/script>/s.exec(html);
  if (!match?.[1]) throw new Error("no embedded data in the page");
  return JSON.parse(match[1]) as StaticViewData;
}

const titleOf = (html: string) => /<title>(.*?)<\/title>/.exec(html)?.[1];
const runKeys = (data: StaticViewData, prefix: string) =>
  Object.keys(data.runs).filter((key) => key.startsWith(`${prefix}:`));

describe("renderStaticViewer", () => {
  it("embeds every iteration, each agent's under <n>/<agent> and the first agent's also under <n>", async () => {
    const html = await renderStaticViewer(root());
    expect(titleOf(html)).toBe("skillgym — demo-skill");
    const data = dataOf(html);
    expect(data.key).toBe(createHash("sha256").update(root()).digest("hex").slice(0, 16));
    expect(data.key).toMatch(/^[0-9a-f]{16}$/);
    expect(data.workspace.skill_name).toBe("demo-skill");
    expect(data.workspace.iterations.map((it) => it.name)).toEqual(["iteration-1", "iteration-2"]);
    expect(Object.keys(data.iterations).sort()).toEqual(["1", "2", "2/claude-code", "2/codex"]);
    expect(data.iterations["1"]?.runs).toHaveLength(36);
    expect(data.iterations["2"]).toEqual(data.iterations["2/claude-code"]);
    expect(data.iterations["2/claude-code"]).toMatchObject({
      agent: "claude-code",
      agents: ["claude-code", "codex"],
    });
    expect(data.iterations["2/codex"]).toMatchObject({ agent: "codex", agents: ["claude-code", "codex"] });
    expect(data.iterations["1"]).not.toHaveProperty("agent");
  });

  it("embeds the detail of every run, in the iteration's order, keyed <iteration>:<run>", async () => {
    const data = dataOf(await renderStaticViewer(root()));
    const ids = data.iterations["1"]?.runs.map((run) => run.id) ?? [];
    expect(ids).toHaveLength(36);
    expect(runKeys(data, "1")).toEqual(ids.map((id) => `1:${id}`));
    expect(new Set(ids).size).toBe(36);
    for (const agent of ["claude-code", "codex"]) {
      const agentIds = data.iterations[`2/${agent}`]?.runs.map((run) => run.id) ?? [];
      expect(agentIds).toHaveLength(2);
      expect(runKeys(data, `2/${agent}`)).toEqual(agentIds.map((id) => `2/${agent}:${id}`));
    }
    expect(runKeys(data, "2")).toEqual([]);
    expect(Object.keys(data.runs)).toHaveLength(40);
    const last = data.runs["1:eval-e9/without_skill/run-2"];
    expect(last?.outputs).toEqual([
      { path: "notes.md", size: 28, kind: "markdown", text: "notes of e9 without_skill 2\n" },
    ]);
    expect(last?.transcript?.text).toBe(`# transcript\n${"said something\n".repeat(9)}`);
    const codex = data.runs["2/codex:eval-e1/with_skill/run-1"];
    expect(codex?.outputs.map((o) => o.text)).toEqual(["by codex\n"]);
  });

  it("embeds the catalogs with their runs' transcripts, and the tunes", async () => {
    const data = dataOf(await renderStaticViewer(small()));
    expect(data.catalogs.catalogs.map((c) => c.name)).toEqual(["catalog-1"]);
    expect(data.catalogs.catalogs[0]?.transcripts).toEqual({
      "alpha/query-1/run-1": { text: catalogTranscript, size: catalogTranscript.length, truncated: false },
    });
    expect(data.tunes).toEqual({ workspace: true, tunes: [] });
    expect(data.runs["4:eval-e1/without_skill/run-1"]?.transcript).toEqual({
      text: transcript,
      size: transcript.length,
      truncated: false,
    });
  });

  it("cuts texts and transcripts to the limits it is given", async () => {
    const data = dataOf(
      await renderStaticViewer(small(), { limits: { maxTextBytes: 8, maxTranscriptBytes: 40 } }),
    );
    const run = data.runs["4:eval-e1/without_skill/run-1"];
    expect(run?.outputs).toEqual([
      { path: "notes.md", size: 28, kind: "markdown", text: "notes of", truncated: true },
    ]);
    expect(run?.transcript).toEqual({
      text: "# transcript\nsaid something\n",
      size: transcript.length,
      truncated: true,
    });
    expect(data.catalogs.catalogs[0]?.transcripts?.["alpha/query-1/run-1"]).toEqual({
      text: "# the catalog transcript\n",
      size: catalogTranscript.length,
      truncated: true,
    });
    const onlyText = dataOf(await renderStaticViewer(small(), { limits: { maxTextBytes: 8 } }));
    expect(onlyText.catalogs.catalogs[0]?.transcripts?.["alpha/query-1/run-1"]?.truncated).toBe(false);
    expect(onlyText.runs["4:eval-e1/without_skill/run-1"]?.transcript?.truncated).toBe(false);
  });

  it("takes the title it is given, escaped", async () => {
    const html = await renderStaticViewer(small(), { title: "<mine> & co" });
    expect(titleOf(html)).toBe("&lt;mine&gt; &amp; co");
  });

  it("names a workspace of catalogs only after its folder", async () => {
    const only = join(ws.dir, "catalogs-only");
    await writeFiles(only, { "catalog-3/catalog.json": JSON.stringify(catalog) });
    const html = await renderStaticViewer(only);
    expect(titleOf(html)).toBe("skillgym — catalogs-only");
    const data = dataOf(html);
    expect(data.iterations).toEqual({});
    expect(data.runs).toEqual({});
    expect(data.catalogs.catalogs[0]?.transcripts).toEqual({ "alpha/query-1/run-1": null });
  });

  it("refuses a folder that is not a workspace, naming it", async () => {
    await expect(renderStaticViewer(join(ws.dir, "nope"))).rejects.toThrow(/nope: no such folder/);
  });
});

describe("writeStaticViewer", () => {
  it("writes the page to the file, creating its folders, and answers its absolute path", async () => {
    const out = await writeStaticViewer(small(), join(ws.dir, "out", "deep", "..", "view.html"), {
      title: "mine",
    });
    expect(out).toBe(join(ws.dir, "out", "view.html"));
    const html = await readFile(out, "utf8");
    expect(html).toBe(await renderStaticViewer(small(), { title: "mine" }));
    expect(titleOf(html)).toBe("mine");
  });
});

describe("writeStaticReport", () => {
  it("writes report.html into the iteration, over that iteration only", async () => {
    const dir = join(small(), "iteration-4");
    const out = await writeStaticReport(dir, "pdf-rotate");
    expect(out).toBe(join(dir, "report.html"));
    const html = await readFile(out, "utf8");
    expect(titleOf(html)).toBe("skillgym report — pdf-rotate");
    const data = dataOf(html);
    expect(data.workspace.shown).toEqual([4]);
    expect(Object.keys(data.iterations)).toEqual(["4"]);
    expect(runKeys(data, "4")).toEqual(["4:eval-e1/with_skill/run-1", "4:eval-e1/without_skill/run-1"]);
  });
});
