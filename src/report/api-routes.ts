import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { basename } from "node:path";
import { pipeline } from "node:stream/promises";
import { listRuns, parseRunId, runIdOf } from "../runlog/list-runs.js";
import { pickAgent, readIterationView } from "./agents-view.js";
import { catalogTranscriptFile, readCatalogsView, readCatalogTranscript } from "./catalog-view.js";
import { FeedbackRequest } from "./feedback-request.js";
import { FeedbackFileError, updateFeedback } from "./feedback-store.js";
import { contentTypeOf } from "./file-kinds.js";
import { fileHeaders, readJsonBody, sendError, sendJson } from "./http-io.js";
import { readWorkspaceView, type ViewReader } from "./iteration-data.js";
import { readRunDetail } from "./run-detail.js";
import { resolveServedFile } from "./served-file.js";
import { findIteration } from "./target.js";
import { readTunesView } from "./tune-runs.js";

export const maxFeedbackBodyBytes = 64 * 1024;

export interface RouteContext {
  reader: ViewReader;
  /** Runs feedback writes of one iteration one after another, so none is lost. */
  serialise<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export function fileUrl(pathFromRoot: string): string {
  return `/api/file?path=${encodeURIComponent(pathFromRoot)}`;
}

function iterationParam(ctx: RouteContext, raw: string | null) {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return undefined;
  return findIteration(ctx.reader.target, Number(raw));
}

// An iteration of several agents shows one agent's folder at a time: `agent` names it (default: the first).
async function iterationAndAgent(ctx: RouteContext, raw: string | null, agent: string | null | undefined) {
  const iteration = iterationParam(ctx, raw);
  return iteration ? pickAgent(ctx.reader, iteration, agent) : undefined;
}

export async function getWorkspace(ctx: RouteContext, res: ServerResponse): Promise<void> {
  sendJson(res, 200, await readWorkspaceView(ctx.reader));
}

export async function getTunes(ctx: RouteContext, res: ServerResponse): Promise<void> {
  sendJson(res, 200, await readTunesView(ctx.reader));
}

export async function getCatalogs(ctx: RouteContext, res: ServerResponse): Promise<void> {
  sendJson(res, 200, await readCatalogsView(ctx.reader));
}

// A catalog run's transcript: as JSON for the page to show, or with `raw=1` the transcript.md itself, to download.
export async function getCatalogTranscript(
  ctx: RouteContext,
  res: ServerResponse,
  query: URLSearchParams,
): Promise<void> {
  const found = await catalogTranscriptFile(ctx.reader, query.get("catalog"), query.get("run"));
  if (!found.ok) return sendError(res, found.status, found.error);
  if (query.get("raw") !== "1")
    return sendJson(res, 200, { transcript: await readCatalogTranscript(found.file) });
  const size = await stat(found.file).then(
    (s) => (s.isFile() ? s.size : undefined),
    () => undefined,
  );
  if (size === undefined) return sendError(res, 404, `no transcript.md for ${query.get("run")}`);
  res.writeHead(200, fileHeaders("transcript.md", size, undefined));
  // A read that fails part-way ends the response cut short (pipeline destroys it): nothing more can be said.
  await pipeline(createReadStream(found.file), res).catch(() => undefined);
}

export async function getIteration(
  ctx: RouteContext,
  res: ServerResponse,
  number: string,
  query: URLSearchParams,
): Promise<void> {
  const agent = query.get("agent");
  const picked = await iterationAndAgent(ctx, number, agent);
  if (!picked)
    return sendError(res, 404, `no iteration ${number}${agent ? ` of agent ${agent}` : ""} in this view`);
  sendJson(res, 200, await readIterationView(ctx.reader, picked));
}

export async function getRun(ctx: RouteContext, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const picked = await iterationAndAgent(ctx, query.get("iteration"), query.get("agent"));
  if (!picked)
    return sendError(res, 400, "iteration: expected the number of an iteration (and agent) in this view");
  const iteration = picked.ref;
  // Stryker disable next-line StringLiteral: equivalent, no fallback text is a run id
  const ref = parseRunId(query.get("run") ?? "");
  if (!ref) return sendError(res, 400, "run: expected eval-<id>/<configuration>/run-<k>");
  const detail = await readRunDetail(ctx.reader, iteration, ref, { urlFor: fileUrl });
  if (!detail) return sendError(res, 404, `no run ${ref.id} in ${iteration.name}`);
  sendJson(res, 200, detail);
}

export async function getFile(ctx: RouteContext, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const served = await resolveServedFile(ctx.reader.target, query.get("path"));
  if (!served.ok) return sendError(res, served.status, served.error);
  res.writeHead(200, fileHeaders(basename(served.file), served.size, contentTypeOf(served.file)));
  await pipeline(createReadStream(served.file), res).catch(() => undefined);
}

export async function postFeedback(
  ctx: RouteContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readJsonBody(req, res, FeedbackRequest, maxFeedbackBodyBytes);
  if (body === undefined) return;
  // The request is a strict object: what is left beside the iteration and the agent is the change itself.
  const { iteration: _number, agent: _agent, ...change } = body;
  const found = findIteration(ctx.reader.target, body.iteration);
  const picked = found ? await pickAgent(ctx.reader, found, body.agent) : undefined;
  if (!picked)
    return sendError(
      res,
      400,
      `iteration: no iteration ${body.iteration}${body.agent ? ` of agent ${body.agent}` : ""} in this view`,
    );
  const iteration = picked.ref;
  if (body.run_id !== undefined) {
    const runIds = new Set((await listRuns(iteration.dir)).map((r) => runIdOf(r.id)));
    if (!runIds.has(body.run_id))
      return sendError(res, 400, `run_id: no run ${body.run_id} in ${iteration.name}`);
  }
  try {
    const saved = await ctx.serialise(iteration.dir, () => updateFeedback(iteration.dir, change));
    sendJson(res, 200, { ok: true, reviews: saved.reviews.length, status: saved.status ?? null });
  } catch (error) {
    if (error instanceof FeedbackFileError) return sendError(res, 409, error.message);
    throw error;
  }
}
