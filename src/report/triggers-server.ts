import { mkdir, readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { dirname } from "node:path";
import { TriggersFile } from "../contracts/evals.js";
import { writeJson } from "../runlog/atomic-write.js";
import { describeIssues } from "./feedback-request.js";
import {
  answerFailure,
  closeServer,
  listenPreferring,
  readJsonBody,
  sendError,
  sendHtml,
  sendJson,
} from "./http-io.js";
import { renderTriggersPage, triggersPolicy } from "./triggers-page.js";

export const maxTriggersBodyBytes = 1_000_000;

export interface TriggersServerOptions {
  /** The triggers.json to review; it need not exist yet. */
  file: string;
  /** The port to try first; when taken (or absent) any free port is used. */
  port?: number;
}

export interface TriggersServer {
  url: string;
  port: number;
  portWasTaken: boolean;
  file: string;
  close(): Promise<void>;
}

async function getTriggers(file: string, res: ServerResponse): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return sendJson(res, 200, { file, triggers: [] });
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return sendJson(res, 409, { file, error: `${file}: not valid JSON; fix it by hand first` });
  }
  const parsed = TriggersFile.safeParse(raw);
  if (!parsed.success) return sendJson(res, 409, { file, error: `${file}: ${describeIssues(parsed.error)}` });
  sendJson(res, 200, { file, triggers: parsed.data });
}

type Queue = (work: () => Promise<void>) => Promise<void>;

async function postTriggers(
  file: string,
  queue: Queue,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const triggers = await readJsonBody(req, res, TriggersFile, maxTriggersBodyBytes);
  if (triggers === undefined) return;
  await queue(async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeJson(file, triggers);
  });
  sendJson(res, 200, { ok: true, count: triggers.length });
}

async function route(
  file: string,
  queue: Queue,
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
  const path = new URL(asked, "http://127.0.0.1").pathname;
  if (path === "/api/triggers") {
    if (req.method === "GET") return getTriggers(file, res);
    if (req.method === "POST") return postTriggers(file, queue, req, res);
    return sendError(res, 405, "GET or POST only");
  }
  if (req.method !== "GET") return sendError(res, 405, "GET only");
  if (path === "/" || path === "/index.html")
    return sendHtml(res, renderTriggersPage(`skillgym — ${file}`), triggersPolicy());
  if (path === "/favicon.ico") {
    res.writeHead(204).end();
    return;
  }
  return sendError(res, 404, `no route ${path}`);
}

/** Serves the trigger-query review page for one triggers.json on 127.0.0.1; saves are validated and atomic. */
export async function startTriggersServer(options: TriggersServerOptions): Promise<TriggersServer> {
  let hosts = new Set<string>();
  // Saves are serialised so two quick clicks cannot interleave their writes.
  let tail: Promise<void> = Promise.resolve();
  const queue: Queue = (work) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
  const server = createServer((req, res) => {
    route(options.file, queue, req, res, hosts).catch((error: unknown) => answerFailure(res, error));
  });
  const { port, portWasTaken } = await listenPreferring(server, options.port);
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    portWasTaken,
    file: options.file,
    close: () => closeServer(server),
  };
}
