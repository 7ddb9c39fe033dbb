import { readdir, realpath } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { CatalogResults } from "../contracts/catalog.js";
import { runPaths } from "../runlog/layout.js";
import type { ViewReader } from "./iteration-data.js";
import { defaultLimits } from "./output-files.js";
import { readTranscript } from "./run-transcript.js";
import type { CatalogEntry, CatalogsView, TranscriptView } from "./view-model.js";

const CATALOG = /^catalog-(\d+)$/;

/** The names of the `catalog-<N>/` folders in a folder, oldest first. */
export async function catalogFolders(dir: string): Promise<{ number: number; name: string }[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .flatMap((e) => {
      const match = CATALOG.exec(e.name);
      return e.isDirectory() && match ? [{ number: Number(match[1]), name: e.name }] : [];
    })
    .sort((a, b) => a.number - b.number);
}

function readResults(reader: ViewReader, name: string) {
  return reader.cache.value(join(reader.target.root, name, "catalog.json"), CatalogResults);
}

async function transcriptsOf(
  reader: ViewReader,
  name: string,
  results: CatalogResults,
  maxBytes: number,
): Promise<Record<string, TranscriptView | null>> {
  const read = await Promise.all(
    results.runs.map(async (run) => {
      const found = await catalogTranscriptFile(reader, name, run.dir);
      return [run.dir, found.ok ? await readTranscript(found.file, maxBytes) : null] as const;
    }),
  );
  return Object.fromEntries(read);
}

/**
 * Every catalog the workspace holds, newest first, for the Catalog tab; a static file embeds each run's transcript
 * (the server reads one when it is asked for).
 */
export async function readCatalogsView(
  reader: ViewReader,
  options: { transcripts?: boolean; maxTranscriptBytes?: number } = {},
): Promise<CatalogsView> {
  const folders = await catalogFolders(reader.target.root);
  const catalogs = await Promise.all(
    folders.reverse().map(async ({ number, name }): Promise<CatalogEntry> => {
      const results = await readResults(reader, name);
      return {
        number,
        name,
        results: results ?? null,
        problem: results ? null : `${name}/catalog.json is missing or not valid (an interrupted catalog?)`,
        ...(results && options.transcripts
          ? {
              transcripts: await transcriptsOf(
                reader,
                name,
                results,
                options.maxTranscriptBytes ?? defaultLimits.maxTranscriptBytes,
              ),
            }
          : {}),
      };
    }),
  );
  return { catalogs };
}

export type CatalogTranscriptFile =
  | { ok: true; file: string }
  | { ok: false; status: 400 | 404; error: string };

/**
 * The transcript.md of one run of a catalog, by the catalog's folder name and the run's folder as catalog.json
 * lists it: only a run the catalog names is read, so no path from the page reaches another file.
 */
export async function catalogTranscriptFile(
  reader: ViewReader,
  catalog: string | null,
  run: string | null,
): Promise<CatalogTranscriptFile> {
  if (!catalog || !CATALOG.test(catalog))
    return { ok: false, status: 400, error: "catalog: expected catalog-<N>" };
  if (!run) return { ok: false, status: 400, error: "run: expected <owner>/query-<i>/run-<k>" };
  const results = await readResults(reader, catalog);
  if (!results) return { ok: false, status: 404, error: `no catalog ${catalog} in this view` };
  const listed = results.runs.find((r) => r.dir === run);
  if (!listed) return { ok: false, status: 404, error: `no run ${run} in ${catalog}` };
  const folder = join(reader.target.root, catalog);
  const file = runPaths(join(folder, listed.dir)).transcriptMarkdown;
  // A link inside the run folder may point anywhere: only a file that is really inside the catalog is read.
  const [real, realFolder] = await Promise.all([
    realpath(file).catch(() => file),
    realpath(folder).catch(() => folder),
  ]);
  const rel = relative(realFolder, real);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel))
    return { ok: false, status: 404, error: `no transcript.md for ${run} in ${catalog}` };
  return { ok: true, file: real };
}

/** A catalog run's transcript as the run view shows one (cut at a whole line), or null when it has none. */
export async function readCatalogTranscript(file: string): Promise<TranscriptView | null> {
  return readTranscript(file, defaultLimits.maxTranscriptBytes);
}
