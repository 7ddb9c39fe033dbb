import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { writeTextAtomically } from "../runlog/atomic-write.js";
import { parseRunId } from "../runlog/list-runs.js";
import { agentsOfIteration, pickAgent, readIterationView } from "./agents-view.js";
import { readCatalogsView } from "./catalog-view.js";
import { readWorkspaceView, type ViewReader } from "./iteration-data.js";
import type { OutputLimits } from "./output-files.js";
import { renderViewerPage } from "./page/page-html.js";
import { readRunDetail } from "./run-detail.js";
import { resolveViewTarget } from "./target.js";
import { readTunesView } from "./tune-runs.js";
import type { IterationDetail, RunDetail, StaticViewData } from "./view-model.js";
import { createViewReader } from "./view-reader.js";

export interface StaticViewOptions {
  /** The page's title; default from the skill's name. */
  title?: string;
  limits?: Partial<OutputLimits>;
}

async function collect(
  reader: ViewReader,
  limits: Partial<OutputLimits> | undefined,
): Promise<StaticViewData> {
  const workspace = await readWorkspaceView(reader);
  const iterations: Record<string, IterationDetail> = {};
  const runs: Record<string, RunDetail> = {};
  for (const iteration of reader.target.shown) {
    // An iteration of several agents: each agent's folder under `<n>/<agent>`, the first also under `<n>`.
    const found = await agentsOfIteration(reader, iteration);
    for (const agent of found ? found.agents : [undefined]) {
      const picked = await pickAgent(reader, iteration, agent);
      if (!picked) continue;
      const key = agent ? `${iteration.number}/${agent}` : String(iteration.number);
      const data = await readIterationView(reader, picked);
      iterations[key] = data;
      iterations[String(iteration.number)] ??= data;
      // Read a few dozen runs at a time (thousands in a merged iteration), kept in the iteration's order.
      const rest = [...data.runs];
      while (rest.length > 0) {
        const batch = rest.splice(0, 32);
        const details = await Promise.all(
          batch.map((entry) => {
            const ref = parseRunId(entry.id);
            return ref ? readRunDetail(reader, picked.ref, ref, limits ? { limits } : {}) : undefined;
          }),
        );
        batch.forEach((entry, i) => {
          const detail = details[i];
          if (detail) runs[`${key}:${entry.id}`] = detail;
        });
      }
    }
  }
  const key = createHash("sha256").update(reader.target.path).digest("hex").slice(0, 16);
  return {
    key,
    workspace,
    iterations,
    runs,
    tunes: await readTunesView(reader),
    catalogs: await readCatalogsView(reader, {
      transcripts: true,
      ...(limits?.maxTranscriptBytes !== undefined ? { maxTranscriptBytes: limits.maxTranscriptBytes } : {}),
    }),
  };
}

/** The whole viewer as one HTML string: the data embedded as JSON, files inline, no server needed. */
export async function renderStaticViewer(folder: string, options: StaticViewOptions = {}): Promise<string> {
  const reader = createViewReader(await resolveViewTarget(folder));
  const data = await collect(reader, options.limits);
  const name = data.workspace.skill_name ?? basename(reader.target.path);
  return renderViewerPage({ title: options.title ?? `skillgym — ${name}`, data });
}

/** Writes the static viewer to `file` (atomically) and returns its absolute path. */
export async function writeStaticViewer(
  folder: string,
  file: string,
  options: StaticViewOptions = {},
): Promise<string> {
  const html = await renderStaticViewer(folder, options);
  const out = resolve(file);
  await mkdir(dirname(out), { recursive: true });
  await writeTextAtomically(out, html);
  return out;
}
