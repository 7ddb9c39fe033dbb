import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SimScript } from "../contracts/sim-script.js";
import { SkillgymError } from "../errors.js";
import { chatCompletion } from "./chat-completions.js";
import { type MessagesRequest, promptText, readConversation } from "./conversation.js";
import { errorJson, estimateTokens, messageEvents, messageJson, type Usage } from "./encode.js";
import { judgeAnswer } from "./judge-answer.js";
import {
  type ContentBlock,
  choiceOptions,
  contentForTurn,
  matchRule,
  planTurns,
  resolveSkill,
  type SessionDecision,
} from "./plan.js";

export interface SimLogEntry {
  time: string;
  session: string;
  path: string;
  turn: number;
  prompt: string;
  skill?: string;
  action: string;
}

export interface SimOptions {
  port?: number;
  script?: SimScript;
  /** Delay before every Messages API answer, in milliseconds. */
  latencyMs?: number;
  onRequest?: (entry: SimLogEntry) => void;
}

export interface SimServer {
  url: string;
  port: number;
  log: SimLogEntry[];
  close(): Promise<void>;
}

interface SimState {
  sessions: Map<string, SessionDecision>;
  promptRuns: Map<string, number>;
  ruleFaults: Map<number, number>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendMessage(
  res: ServerResponse,
  stream: boolean | undefined,
  id: string,
  content: ContentBlock[],
  usage: Usage,
): void {
  if (stream) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(messageEvents(id, content, usage));
  } else sendJson(res, 200, messageJson(id, content, usage));
}

function sessionKey(req: IncomingMessage, prompt: string): string {
  const header = req.headers["x-claude-code-session-id"];
  if (typeof header === "string" && header) return header;
  return `prompt-${createHash("sha256").update(prompt).digest("hex").slice(0, 12)}`;
}

function decide(state: SimState, script: SimScript, request: MessagesRequest): SessionDecision {
  const conversation = readConversation(request);
  const { rule, index } = matchRule(script, conversation.prompt);
  const skill = resolveSkill(rule.skill, conversation.prompt, conversation.skills, choiceOptions(script));
  if (rule.fault) {
    const faulted = state.ruleFaults.get(index) ?? 0;
    if (rule.fault.sessions === undefined || faulted < rule.fault.sessions) {
      state.ruleFaults.set(index, faulted + 1);
      const fault = rule.fault.hang ? "hang" : (rule.fault.status ?? 529);
      return { ruleIndex: index, rule, skill, loadSkill: false, fault };
    }
  }
  // A faulted session (retried by the harness) does not use up an entry of the trigger pattern.
  const runKey = `${index}\u0000${conversation.prompt}`;
  const run = state.promptRuns.get(runKey) ?? 0;
  state.promptRuns.set(runKey, run + 1);
  const pattern = rule.trigger_pattern;
  const loadSkill = pattern ? pattern[run % pattern.length]! : true;
  return { ruleIndex: index, rule, skill, loadSkill, fault: "none" };
}

export async function startSim(options: SimOptions = {}): Promise<SimServer> {
  const script = options.script ?? SimScript.parse({});
  const state: SimState = { sessions: new Map(), promptRuns: new Map(), ruleFaults: new Map() };
  const log: SimLogEntry[] = [];
  const record = (entry: SimLogEntry) => {
    log.push(entry);
    options.onRequest?.(entry);
  };
  let messageCount = 0;

  async function handleMessages(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const request = JSON.parse(body) as MessagesRequest;
    const conversation = readConversation(request);
    const usage = {
      input_tokens: estimateTokens(body),
      output_tokens: 0,
    };
    const id = `msg_sim_${++messageCount}`;
    const session = sessionKey(req, conversation.prompt);
    const base = {
      time: new Date().toISOString(),
      session,
      path: req.url ?? "",
      turn: conversation.turn,
      prompt: conversation.prompt,
    };

    // A judge prompt (grader, comparator, analyzer) is answered at once, as a final text turn, tools or not.
    const judged = judgeAnswer(promptText(request), script.judge);
    if (judged) {
      usage.output_tokens = estimateTokens(judged.text);
      record({ ...base, action: `judge ${judged.kind}` });
      sendMessage(res, request.stream, id, [{ type: "text", text: judged.text }], usage);
      return;
    }

    if (!conversation.hasTools) {
      // Side requests (titles, summaries) get a short plain answer.
      record({ ...base, action: "side-request" });
      usage.output_tokens = 3;
      sendMessage(res, request.stream, id, [{ type: "text", text: "Simulated answer." }], usage);
      return;
    }

    let decision = state.sessions.get(session);
    if (!decision) {
      decision = decide(state, script, request);
      state.sessions.set(session, decision);
    }
    const latency = decision.rule.latency_ms ?? options.latencyMs ?? 0;
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));

    if (decision.fault === "hang") {
      record({ ...base, action: "hang" });
      return;
    }
    if (decision.fault !== "none") {
      record({ ...base, action: `fault ${decision.fault}` });
      sendJson(res, decision.fault, errorJson(decision.fault));
      return;
    }

    const turns = planTurns(decision, conversation);
    const content = contentForTurn(
      turns,
      conversation.turn,
      session.replace(/[^a-zA-Z0-9]/g, "").slice(0, 16),
    );
    usage.output_tokens = estimateTokens(JSON.stringify(content));
    const tool = content.find((b) => b.type === "tool_use");
    record({
      ...base,
      ...(decision.skill ? { skill: decision.skill } : {}),
      action:
        tool && tool.type === "tool_use"
          ? `${tool.name} ${JSON.stringify(tool.input).slice(0, 200)}`
          : "final text",
    });
    sendMessage(res, request.stream, id, content, usage);
  }

  function handleChatCompletion(req: IncomingMessage, res: ServerResponse, body: string): void {
    const { response, kind } = chatCompletion(`chatcmpl-sim-${++messageCount}`, body, script.judge);
    record({
      time: new Date().toISOString(),
      session: "chat-completions",
      path: req.url ?? "",
      turn: 0,
      prompt: "",
      action: kind ? `judge ${kind}` : "chat-completion",
    });
    sendJson(res, 200, response);
  }

  const server = createServer((req, res) => {
    readBody(req)
      .then(async (body) => {
        const path = (req.url ?? "/").split("?")[0];
        if (req.method === "POST" && path === "/v1/messages/count_tokens") {
          sendJson(res, 200, { input_tokens: estimateTokens(body) });
        } else if (req.method === "POST" && path === "/v1/messages") {
          await handleMessages(req, res, body);
        } else if (req.method === "POST" && path === "/v1/chat/completions") {
          handleChatCompletion(req, res, body);
        } else if (req.method === "HEAD" || req.method === "GET") {
          sendJson(res, 200, { simulator: "skillgym sim" });
        } else {
          sendJson(res, 404, {
            type: "error",
            error: { type: "not_found_error", message: `No route ${req.method} ${path}` },
          });
        }
      })
      .catch((error: unknown) => {
        if (!res.headersSent) {
          sendJson(res, 400, {
            type: "error",
            error: {
              type: "invalid_request_error",
              message: error instanceof Error ? error.message : String(error),
            },
          });
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
function listenError(error: NodeJS.ErrnoException, port: number): Error {
  const hint = "pass another --port, or leave it out to take any free one";
  if (error.code === "EADDRINUSE")
    return new SkillgymError("USAGE", `port ${port} on 127.0.0.1 is taken by another process`, { hint });
  if (error.code === "EACCES")
    return new SkillgymError("USAGE", `port ${port} on 127.0.0.1 needs privileges this process lacks`, {
      hint,
    });
  return error;
}
