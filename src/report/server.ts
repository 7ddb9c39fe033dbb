import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { basename } from "node:path";
import {
  getCatalogs,
  getCatalogTranscript,
  getFile,
  getIteration,
  getRun,
  getTunes,
  getWorkspace,
  postFeedback,
  type RouteContext,
} from "./api-routes.js";
import { answerFailure, closeServer, listenPreferring, sendError, sendHtml } from "./http-io.js";
import { renderViewerPage, viewerPolicy } from "./page/page-html.js";
import { resolveViewTarget, type ViewTarget } from "./target.js";
import { createViewReader } from "./view-reader.js";

export interface ViewServerOptions {
  /** A workspace folder (every iteration) or one iteration folder. */
  folder: string;
  /** The port to try first; when taken (or absent) any free port is used. */
  port?: number;
}

export interface ViewServer {
  url: string;
  port: number;
  /** True when the asked port was taken and another was used. */
  portWasTaken: boolean;
  target: ViewTarget;
  close(): Promise<void>;
}

/** Work under one key runs one piece after another, in the order it was asked for, whether the one before failed or not. */
export function createSerialiser(): RouteContext["serialise"] {
  const tails = new Map<string, Promise<unknown>>();
  return (key, work) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    // Stryker disable next-line BlockStatement: equivalent, it only frees the entry of a key with no work left
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

// Only this machine's pages may talk to the server: a foreign Host (DNS rebinding) or Origin is refused.
function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

async function route(
  ctx: RouteContext,
  page: { html: string; policy: string },
  req: IncomingMessage,
  res: ServerResponse,
  hosts: Set<string>,
): Promise<void> {
  // Stryker disable next-line StringLiteral: equivalent, no allowed host is any text
  const host = req.headers.host ?? "";
  if (!hosts.has(host)) return sendError(res, 403, "this server answers on 127.0.0.1 only");
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.has(origin.replace(/^http:\/\//, ""))) {
    return sendError(res, 403, "requests from other sites are refused");
  }
  // Stryker disable next-line StringLiteral: equivalent, a server's request always has a url, and an empty one is the base's "/"
  const asked = req.url ?? "/";
  const url = new URL(asked, "http://127.0.0.1");
  const path = url.pathname;
  if (path === "/api/feedback") {
    if (req.method !== "POST") return sendError(res, 405, "POST only");
    return postFeedback(ctx, req, res);
  }
  if (req.method !== "GET") return sendError(res, 405, "GET only");
  if (path === "/" || path === "/index.html") return sendHtml(res, page.html, page.policy);
  if (path === "/favicon.ico") {
    res.writeHead(204).end();
    return;
  }
  if (path === "/api/workspace") return getWorkspace(ctx, res);
  if (path === "/api/tunes") return getTunes(ctx, res);
  if (path === "/api/catalogs") return getCatalogs(ctx, res);
  if (path === "/api/catalog-transcript") return getCatalogTranscript(ctx, res, url.searchParams);
  const iteration = /^\/api\/iteration\/([^/]+)$/.exec(path);
  // Stryker disable next-line StringLiteral: equivalent, the pattern's group always matches when the pattern does
  if (iteration) return getIteration(ctx, res, iteration[1] ?? "", url.searchParams);
  if (path === "/api/run") return getRun(ctx, res, url.searchParams);
  if (path === "/api/file") return getFile(ctx, res, url.searchParams);
  return sendError(res, 404, `no route ${path}`);
}

/** Serves the viewer over a workspace on 127.0.0.1. It never stops another process: a taken port means another port. */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const target = await resolveViewTarget(options.folder);
  const ctx: RouteContext = { reader: createViewReader(target), serialise: createSerialiser() };
  const page = {
    html: renderViewerPage({ title: `skillgym — ${basename(target.path)}` }),
    policy: `${viewerPolicy("server")}; frame-ancestors 'none'`,
  };
  let hosts = new Set<string>();
  const server = createServer((req, res) => {
    route(ctx, page, req, res, hosts).catch((error: unknown) => answerFailure(res, error));
  });
  const { port, portWasTaken } = await listenPreferring(server, options.port);
  hosts = allowedHosts(port);
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    portWasTaken,
    target,
    close: () => closeServer(server),
  };
}
