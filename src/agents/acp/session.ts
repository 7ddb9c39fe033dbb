import { createWriteStream } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { Redactor } from "../../redact.js";
import type { AgentRunRequest, AgentRunResult, InitEvent, ResultEvent } from "../agent.js";
import type { AgentEvent } from "../events.js";
import { isObject, type Json } from "../json-lines.js";
import { type ChildPipes, type ProcessResult, runProcess } from "../process/run-process.js";
import { runResultOf } from "../run-result.js";
import { sandboxedRun } from "../sandboxed-run.js";
import { FsMissing, FsRefusal, readTextFile, writeTextFile } from "./client-fs.js";
import { modelChoiceOf } from "./models.js";
import { decidePermission } from "./permission.js";
import { type AcpEventMapper, createAcpMapper, type PromptEnd } from "./updates.js";

/** One run of an ACP agent: its command, what the run knows that the protocol does not say, and how it ends. */
export interface AcpSession {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  request: AgentRunRequest;
  redactor: Redactor;
  /** The skills the run's workspace and home hold (the init event's list; a skill tool's title is read by them). */
  skills: string[];
  /** The model the run asked for, recorded and priced when the agent names none. */
  model?: string | undefined;
  /** The run's permission policy, as recorded. */
  mode: string;
  /** Offer the client's file-system methods (default); the agent then reads and writes through skillgym. */
  clientFs?: boolean;
  /** A model to choose over the protocol first (a session config option or `session/set_model`). */
  chooseModel?: string | undefined;
  /** A session mode to switch to first (ACP `session/set_mode`), when the agent offers it. */
  sessionMode?: string | undefined;
  classify(proc: ProcessResult, result: ResultEvent | undefined): Pick<AgentRunResult, "outcome" | "message">;
}

/** What skillgym's own transcript lines say besides the raw protocol: its decisions, the session, the prompt's end. */
export type SkillgymLine =
  | { from: "skillgym"; init: InitEvent }
  | { from: "skillgym"; allowed: Json }
  | { from: "skillgym"; refused: Extract<AgentEvent, { kind: "refused" }> }
  | { from: "skillgym"; end: PromptEnd };

const CLIENT_INFO = { name: "skillgym", title: "skillgym", version: "0" };

function modelOfSession(session: Json): string | undefined {
  if (isObject(session.models) && typeof session.models.currentModelId === "string")
    return session.models.currentModelId;
  // Stryker disable next-line ArrayDeclaration: equivalent, a list holding no object holds no model option
  const options = Array.isArray(session.configOptions) ? session.configOptions : [];
  const model = options.find((o) => isObject(o) && o.category === "model");
  return isObject(model) && typeof model.currentValue === "string" ? model.currentValue : undefined;
}

// An agent's error with what its data says (Qwen Code's "Internal error" names the API's answer in `data.details`).
function errorText(error: { message: string; data?: unknown }): string {
  const data = error.data;
  const detail = isObject(data) ? (data.details ?? data.message) : data;
  return typeof detail === "string" && detail && !error.message.includes(detail)
    ? `${error.message}: ${detail}`
    : error.message;
}

// A caller's system prompt: ACP has no field for one, so it leads the prompt (as Gemini CLI's adapter does).
function promptText(request: AgentRunRequest): string {
  return request.systemPrompt !== undefined ? `${request.systemPrompt}\n\n${request.prompt}` : request.prompt;
}

/**
 * Runs one prompt turn of an ACP agent as its client (the official SDK): `initialize`, `session/new` in the run's
 * workspace, `session/prompt`; its updates become events as they arrive, its permission requests and file-system
 * requests are answered inside the workspace only (refusals recorded), and a stop, time-out or cancel sends
 * `session/cancel` before the process tree is ended. Terminals are not offered.
 */
export async function runAcpSession(run: AcpSession): Promise<AgentRunResult> {
  const { request, redactor } = run;
  const tools = request.tools ?? "eval";
  const roots = [request.cwd];
  const transcript = request.transcriptPath ? createWriteStream(request.transcriptPath) : undefined;
  const writeLine = (value: unknown) => transcript?.write(`${redactor.text(JSON.stringify(value))}\n`);
  const events: AgentEvent[] = [];
  const mapper: AcpEventMapper = createAcpMapper({ skills: run.skills, model: run.model });
  let init: InitEvent | undefined;
  let result: ResultEvent | undefined;
  let endRun: ((reason: "stop" | "done") => void) | undefined;
  let stopAsked = false;
  let cancel: (() => Promise<void>) | undefined;
  let closeInput: (() => void) | undefined;
  let conversation: Promise<unknown> = Promise.resolve();

  const emit = (list: AgentEvent[]) => {
    for (const event of list) {
      events.push(event);
      if (event.kind === "init") init = event;
      if (event.kind === "result") result = event;
      if (request.onEvent?.(event) === "stop" && !stopAsked) {
        stopAsked = true;
        endRun?.("stop");
      }
    }
  };
  const refuse = (refused: Extract<AgentEvent, { kind: "refused" }>) => {
    writeLine({ from: "skillgym", refused });
    emit([refused]);
  };

  // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent, the SDK uses the name only in its diagnostics
  const client = acp.client({ name: "skillgym" });
  const app = client
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      emit(mapper.update(params.update as unknown as Json));
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const json = params as unknown as Json;
      const decision = decidePermission(json, tools, roots);
      const toolCall = isObject(json.toolCall) ? json.toolCall : {};
      if (decision.allowed) {
        writeLine({ from: "skillgym", allowed: toolCall });
        emit(mapper.permission(toolCall));
      } else {
        const title = typeof toolCall.title === "string" ? toolCall.title : "";
        refuse({
          kind: "refused",
          what: "permission",
          // Stryker disable next-line StringLiteral: equivalent, ACP requires a tool call's id
          target: title || String(toolCall.toolCallId ?? ""),
          reason: decision.reason,
          ...(typeof toolCall.toolCallId === "string" ? { toolUseId: toolCall.toolCallId } : {}),
        });
      }
      return { outcome: decision.outcome };
    })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      try {
        return await readTextFile(params, roots);
      } catch (error) {
        throw fsError(error);
      }
    })
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      try {
        return await writeTextFile(params, roots, tools);
      } catch (error) {
        throw fsError(error);
      }
    })
    .onRequest("*", ({ method }) => {
      refuse({ kind: "refused", what: "request", target: method, reason: "skillgym does not offer it" });
      throw acp.RequestError.methodNotFound(method);
    });

  function fsError(error: unknown): Error {
    if (error instanceof FsMissing) return acp.RequestError.resourceNotFound(error.target);
    if (error instanceof FsRefusal) {
      refuse({ kind: "refused", what: error.what, target: error.target, reason: error.reason });
      return new acp.RequestError(-32000, error.message);
    }
    return acp.RequestError.internalError(undefined, (error as Error).message);
  }

  const finish = (end: PromptEnd) => {
    writeLine({ from: "skillgym", end });
    emit(mapper.finish(end));
  };

  function attach(io: ChildPipes, end: (reason: "stop" | "done") => void): void {
    endRun = end;
    closeInput = () => io.stdin.end();
    const base = acp.ndJsonStream(
      Writable.toWeb(io.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(io.stdout) as ReadableStream<Uint8Array>,
    );
    const readable = base.readable.pipeThrough(
      new TransformStream<acp.AnyMessage, acp.AnyMessage>({
        transform(message, controller) {
          writeLine({ from: "agent", message });
          controller.enqueue(message);
        },
      }),
    );
    const outgoing = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
      transform(message, controller) {
        writeLine({ from: "client", message });
        controller.enqueue(message);
      },
    });
    outgoing.readable.pipeTo(base.writable).catch(() => {});
    conversation = app
      .connectWith({ readable, writable: outgoing.writable }, async (ctx) => {
        const initialized: acp.InitializeResponse = await ctx.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          // No terminal: an agent then runs its commands itself, in its own process tree.
          clientCapabilities: {
            fs: { readTextFile: run.clientFs !== false, writeTextFile: run.clientFs !== false },
            terminal: false,
          },
          clientInfo: CLIENT_INFO,
        });
        const session = (await ctx.request(acp.methods.agent.session.new, {
          cwd: request.cwd,
          mcpServers: [],
        })) as unknown as Json;
        const sessionId = String(session.sessionId);
        cancel = () => ctx.notify(acp.methods.agent.session.cancel, { sessionId });
        const modes =
          isObject(session.modes) && Array.isArray(session.modes.availableModes)
            ? session.modes.availableModes
            : // Stryker disable next-line ArrayDeclaration: equivalent, a mode that is no object is never chosen
              [];
        if (run.sessionMode && modes.some((m) => isObject(m) && m.id === run.sessionMode))
          await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: run.sessionMode });
        if (run.chooseModel) {
          const choice = modelChoiceOf(session);
          // Stryker disable next-line UnaryOperator: equivalent, the code is read only as an HTTP status, which neither is
          if (!choice) throw new acp.RequestError(-32601, "the agent offers no model selection");
          const { method, params } = choice.request(sessionId, run.chooseModel);
          await ctx.request(method, params);
        }
        const version = initialized.agentInfo?.version;
        const initEvent: InitEvent = {
          kind: "init",
          model: run.model ?? modelOfSession(session) ?? "unknown",
          tools: [],
          skills: run.skills,
          sessionId,
          ...(version ? { version } : {}),
          mode: run.mode,
        };
        writeLine({ from: "skillgym", init: initEvent });
        emit([initEvent]);
        if (stopAsked) return;
        const response = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: promptText(request) }],
        });
        finish({ response: response as unknown as Json });
      })
      .catch((error: unknown) => {
        // An error the agent answered with ends the turn; a closed connection is the process's end, read from it.
        if (error instanceof acp.RequestError && !stopAsked)
          finish({ error: { code: error.code, message: errorText(error) } });
      })
      .finally(() => end("done"));
  }

  const sandboxed = await sandboxedRun(run, request);
  const proc = await runProcess({
    command: sandboxed?.command ?? run.command,
    args: sandboxed?.args ?? run.args,
    cwd: request.cwd,
    env: sandboxed?.env ?? run.env,
    timeoutMs: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
    killGraceMs: 1500,
    attach,
    // Asked to stop (or out of time): `session/cancel` first, then the process tree; a finished turn: end its input.
    beforeKill: async () => {
      if (result) return closeInput?.();
      await cancel?.().catch(() => {});
      await conversation;
    },
  });
  await conversation;
  const sandbox = await sandboxed?.close();
  if (transcript) await new Promise<void>((resolve) => transcript.end(resolve));
  return runResultOf({ proc, events, init, result, redactor, classify: run.classify, sandbox });
}
