import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SimScript } from "../contracts/sim-script.js";
import { SkillgymError } from "../errors.js";
import { createSimModel } from "./model.js";
import { anthropicMessages, countTokens } from "./protocols/anthropic-messages.js";
import { GEMINI_PATH, gemini } from "./protocols/gemini.js";
import { openaiChat } from "./protocols/openai-chat.js";
import { CHAT_AGENTS_PATH, openaiChatAgents } from "./protocols/openai-chat-agents.js";
import { openaiResponses } from "./protocols/openai-responses.js";
import { type HttpAnswer, jsonAnswer, type Protocol } from "./protocols/protocol.js";

export interface SimLogEntry {
  time: string;
  session: string;
  path: string;
  turn: number;
  prompt: string;
  skill?: string;
  /** The skills the request listed to the model. */
  listed?: string[];
  /** The texts of the turns before the prompt, when the run continues a prior conversation. */
  history?: string[];
  action: string;
  /** The request's headers and body as they came (`logBodies`). */
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
}

export interface SimOptions {
  port?: number;
  script?: SimScript;
  /** Delay before every agent turn's answer, in milliseconds. */
  latencyMs?: number;
  /** Keep each request's headers and body in the log (tests compare them byte for byte). */
  logBodies?: boolean;
  onRequest?: (entry: SimLogEntry) => void;
}

export interface SimServer {
  url: string;
  port: number;
  log: SimLogEntry[];
  close(): Promise<void>;
}

const protocols = new Map<string, Protocol>([
  ["/v1/messages", anthropicMessages],
  ["/v1/chat/completions", openaiChat],
  ["/v1/responses", openaiResponses],
  [CHAT_AGENTS_PATH, openaiChatAgents],
]);
// Wires that carry the model in the path.
const patternProtocols: [RegExp, Protocol][] = [[GEMINI_PATH, gemini]];

function protocolFor(path: string): Protocol | undefined {
  return protocols.get(path) ?? patternProtocols.find(([pattern]) => pattern.test(path))?.[1];
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, answer: HttpAnswer): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

export async function startSim(options: SimOptions = {}): Promise<SimServer> {
  const model = createSimModel(options.script ?? SimScript.parse({}), options);
  const log: SimLogEntry[] = [];
  const record = (entry: SimLogEntry) => {
    log.push(entry);
    options.onRequest?.(entry);
  };
  let answerCount = 0;

  async function answer(
    protocol: Protocol,
    req: IncomingMessage,
    res: ServerResponse,
    body: string,
    url: string,
  ) {
    const wire = protocol.read(body, req.headers, url);
    const n = ++answerCount;
    const time = new Date().toISOString();
    const { conversation, session } = wire.request;
    const reply = model.reply(wire.request);
    if (reply.latencyMs > 0) await new Promise((r) => setTimeout(r, reply.latencyMs));
    record({
      time,
      session,
      path: url,
      turn: conversation.turn,
      prompt: conversation.prompt,
      ...(reply.skill ? { skill: reply.skill } : {}),
      listed: conversation.skills.map((s) => s.name),
      ...(conversation.history?.length ? { history: conversation.history } : {}),
      action: reply.kind === "plain" ? protocol.plainAction : reply.action,
      ...(options.logBodies ? { headers: req.headers, body } : {}),
    });
    if (reply.fault === "hang") return;
    send(res, reply.fault ? protocol.error(reply.fault) : protocol.write(reply, wire, n));
  }

  const server = createServer((req, res) => {
    readBody(req)
      .then(async (body) => {
        // A server's request always has a url: Node's type leaves it optional for a client's response.
        const url = req.url as string;
        const path = url.split("?")[0] as string;
        const protocol = req.method === "POST" ? protocolFor(path) : undefined;
        if (req.method === "POST" && path === "/v1/messages/count_tokens") send(res, countTokens(body));
        else if (protocol) await answer(protocol, req, res, body, url);
        else if (req.method === "HEAD" || req.method === "GET") {
          send(res, jsonAnswer(200, { simulator: "skillgym sim" }));
        } else {
          send(
            res,
            jsonAnswer(404, {
              type: "error",
              error: { type: "not_found_error", message: `No route ${req.method} ${path}` },
            }),
          );
        }
      })
      .catch((error: unknown) => {
        if (!res.headersSent) {
          send(
            res,
            jsonAnswer(400, {
              type: "error",
              error: {
                type: "invalid_request_error",
                message: error instanceof Error ? error.message : String(error),
              },
            }),
          );
        }
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(listenError(error, options.port ?? 0)));
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A port that cannot be had is the caller's choice to change, not a crash.
export function listenError(error: NodeJS.ErrnoException, port: number): Error {
  const hint = "pass another --port, or leave it out to take any free one";
  if (error.code === "EADDRINUSE")
    return new SkillgymError("USAGE", `port ${port} on 127.0.0.1 is taken by another process`, { hint });
  if (error.code === "EACCES")
    return new SkillgymError("USAGE", `port ${port} on 127.0.0.1 needs privileges this process lacks`, {
      hint,
    });
  return error;
}
