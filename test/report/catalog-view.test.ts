import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogResults } from "../../src/contracts/catalog.js";
import {
  catalogFolders,
  catalogTranscriptFile,
  readCatalogsView,
  readCatalogTranscript,
} from "../../src/report/catalog-view.js";
import { resolveViewTarget } from "../../src/report/target.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { tempDir, writeFiles } from "./workspace-fixture.js";

// The Catalog tab on a hand-made workspace: which catalog-<N>/ folders it lists and in what order, what it says of
// one whose catalog.json is broken, and which transcript.md a request may read (only a run catalog.json lists, and
// only a file really inside the catalog).
let ws: Awaited<ReturnType<typeof tempDir>>;
const root = () => join(ws.dir, "catalog-ws");
const outside = () => join(ws.dir, "secret.md");

function catalogRun(dir: string) {
  return {
    owner: "alpha",
    query: `query of ${dir}`,
    should_trigger: true,
    run_number: 1,
    fired: "alpha",
    loaded: ["alpha"],
    outcome: "success",
    dir,
  };
}

function results(dir: string, runs: string[]): CatalogResults {
  return CatalogResults.parse({
    dir,
    agent: { name: "claude-code" },
    simulated: true,
    runs_per_query: 1,
    skills: [],
    confusion: {},
    pairs: [],
    runs: runs.map(catalogRun),
    errors: 0,
    notes: [],
  });
}

const catalog2 = () =>
  results("/skills", [
    "alpha/query-1/run-1",
    "alpha/query-2/run-1",
    "beta/query-1/run-1",
    "beta/query-2/run-1",
    "../catalog-10/alpha/query-1/run-1",
  ]);
const catalog10 = () => results("/skills-10", ["alpha/query-1/run-1"]);

beforeAll(async () => {
  ws = await tempDir("skillgym-catalog-view-");
  await writeFiles(ws.dir, { "secret.md": "not the catalog's\n" });
  await writeFiles(root(), {
    "catalog-2/catalog.json": JSON.stringify(catalog2()),
    "catalog-2/alpha/query-1/run-1/transcript.md": "line one\nline two\nline three\n",
    "catalog-2/alpha/query-2/run-1/outputs/x.txt": "no transcript here\n",
    "catalog-10/catalog.json": JSON.stringify(catalog10()),
    "catalog-10/alpha/query-1/run-1/transcript.md": "ten\n",
    "catalog-3/catalog.json": "{ not json",
    // Neither a catalog folder nor counted: a file of that name, and folders whose names only look alike.
    "catalog-4": "a file",
    "catalog-x/catalog.json": JSON.stringify(catalog10()),
    "catalog-5-old/catalog.json": JSON.stringify(catalog10()),
    "old-catalog-6/catalog.json": JSON.stringify(catalog10()),
  });
  // A link out of the catalog, and one to the catalog folder itself.
  await mkdir(join(root(), "catalog-2/beta/query-1/run-1"), { recursive: true });
  await symlink(outside(), join(root(), "catalog-2/beta/query-1/run-1/transcript.md"));
  await mkdir(join(root(), "catalog-2/beta/query-2/run-1"), { recursive: true });
  await symlink(join(root(), "catalog-2"), join(root(), "catalog-2/beta/query-2/run-1/transcript.md"));
});

afterAll(async () => {
  await ws?.cleanup();
});

const reader = async () => createViewReader(await resolveViewTarget(root()));

describe("catalogFolders", () => {
  it("lists catalog-<N> folders by number, oldest first, and nothing else", async () => {
    expect(await catalogFolders(root())).toEqual([
      { number: 2, name: "catalog-2" },
      { number: 3, name: "catalog-3" },
      { number: 10, name: "catalog-10" },
    ]);
  });

  it("lists none in a folder that does not exist", async () => {
    expect(await catalogFolders(join(ws.dir, "missing"))).toEqual([]);
  });
});

describe("readCatalogsView", () => {
  it("lists every catalog newest first, with a problem for one whose catalog.json cannot be read", async () => {
    expect(await readCatalogsView(await reader())).toEqual({
      catalogs: [
        { number: 10, name: "catalog-10", results: catalog10(), problem: null },
        {
          number: 3,
          name: "catalog-3",
          results: null,
          problem: "catalog-3/catalog.json is missing or not valid (an interrupted catalog?)",
        },
        { number: 2, name: "catalog-2", results: catalog2(), problem: null },
      ],
    });
  });

  it("embeds each run's transcript when asked, cut at a whole line, null where a run has none it may read", async () => {
    const view = await readCatalogsView(await reader(), { transcripts: true, maxTranscriptBytes: 12 });
    expect(view.catalogs.map((c) => c.transcripts)).toEqual([
      { "alpha/query-1/run-1": { text: "ten\n", size: 4, truncated: false } },
      undefined,
      {
        "alpha/query-1/run-1": { text: "line one\n", size: 29, truncated: true },
        "alpha/query-2/run-1": null,
        "beta/query-1/run-1": null,
        "beta/query-2/run-1": null,
        "../catalog-10/alpha/query-1/run-1": null,
      },
    ]);
  });

  it("embeds whole transcripts up to the default limit", async () => {
    const view = await readCatalogsView(await reader(), { transcripts: true });
    expect(view.catalogs[2]?.transcripts?.["alpha/query-1/run-1"]).toEqual({
      text: "line one\nline two\nline three\n",
      size: 29,
      truncated: false,
    });
  });
});

describe("catalogTranscriptFile", () => {
  const ask = async (catalog: string | null, run: string | null) =>
    catalogTranscriptFile(await reader(), catalog, run);

  it("finds the transcript.md of a run the catalog lists", async () => {
    const found = await ask("catalog-2", "alpha/query-1/run-1");
    expect(found).toEqual({ ok: true, file: join(root(), "catalog-2/alpha/query-1/run-1/transcript.md") });
    if (!found.ok) throw new Error("not found");
    expect(await readCatalogTranscript(found.file)).toEqual({
      text: "line one\nline two\nline three\n",
      size: 29,
      truncated: false,
    });
  });

  it("refuses a catalog name that is not catalog-<N>", async () => {
    const refusal = { ok: false, status: 400, error: "catalog: expected catalog-<N>" };
    expect(await ask(null, "alpha/query-1/run-1")).toEqual(refusal);
    expect(await ask("", "alpha/query-1/run-1")).toEqual(refusal);
    expect(await ask("catalog-x", "alpha/query-1/run-1")).toEqual(refusal);
    expect(await ask("old-catalog-2", "alpha/query-1/run-1")).toEqual(refusal);
    expect(await ask("catalog-2-old", "alpha/query-1/run-1")).toEqual(refusal);
  });

  it("refuses a request that names no run", async () => {
    const refusal = { ok: false, status: 400, error: "run: expected <owner>/query-<i>/run-<k>" };
    expect(await ask("catalog-2", null)).toEqual(refusal);
    expect(await ask("catalog-2", "")).toEqual(refusal);
  });

  it("answers 404 for a catalog it cannot read and a run the catalog does not list", async () => {
    expect(await ask("catalog-9", "alpha/query-1/run-1")).toEqual({
      ok: false,
      status: 404,
      error: "no catalog catalog-9 in this view",
    });
    expect(await ask("catalog-3", "alpha/query-1/run-1")).toEqual({
      ok: false,
      status: 404,
      error: "no catalog catalog-3 in this view",
    });
    expect(await ask("catalog-10", "alpha/query-2/run-1")).toEqual({
      ok: false,
      status: 404,
      error: "no run alpha/query-2/run-1 in catalog-10",
    });
  });

  it("reads no file outside the catalog: a listed path out of it, a link out of it, a link to the folder", async () => {
    for (const run of ["../catalog-10/alpha/query-1/run-1", "beta/query-1/run-1", "beta/query-2/run-1"])
      expect(await ask("catalog-2", run)).toEqual({
        ok: false,
        status: 404,
        error: `no transcript.md for ${run} in catalog-2`,
      });
  });

  it("names the path of a listed run that has no transcript.md, which then reads as none", async () => {
    const found = await ask("catalog-2", "alpha/query-2/run-1");
    expect(found).toEqual({ ok: true, file: join(root(), "catalog-2/alpha/query-2/run-1/transcript.md") });
    if (found.ok) expect(await readCatalogTranscript(found.file)).toBeNull();
  });
});
