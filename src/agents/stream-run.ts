import { createWriteStream } from "node:fs";
import type { Redactor } from "../redact.js";
import type { AgentRunRequest, AgentRunResult, InitEvent, ResultEvent } from "./agent.js";
import type { AgentEvent } from "./events.js";
import { type ProcessResult, runProcess } from "./process/run-process.js";
import { runResultOf } from "./run-result.js";
import { sandboxedRun } from "./sandboxed-run.js";

export interface StreamRun {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  request: AgentRunRequest;
  redactor: Redactor;
  /** Text the agent reads from its stdin (its prompt, for an agent that takes it there). */
  stdin?: string;
  /** The agent's events in one stdout line (already masked). */
  parse(line: string): AgentEvent[];
  /** How the run ended, from the process and the agent's final result. */
  classify(proc: ProcessResult, result: ResultEvent | undefined): Pick<AgentRunResult, "outcome" | "message">;
}

function writeLine(stream: NodeJS.WritableStream, line: string): void {
  stream.write(line.endsWith("\n") ? line : `${line}\n`);
}

/** What every adapter does with its agent's stream: mask each line, keep it raw, parse it, stop on request, classify. */
export async function runAgentStream(run: StreamRun): Promise<AgentRunResult> {
  const { request, redactor } = run;
  const transcript = request.transcriptPath ? createWriteStream(request.transcriptPath) : undefined;
  const events: AgentEvent[] = [];
  let init: InitEvent | undefined;
  let result: ResultEvent | undefined;
  const sandboxed = await sandboxedRun(run, request);
  const proc = await runProcess({
    command: sandboxed?.command ?? run.command,
    args: sandboxed?.args ?? run.args,
    cwd: request.cwd,
    env: sandboxed?.env ?? run.env,
    timeoutMs: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
    killGraceMs: 1500,
    ...(run.stdin !== undefined ? { stdin: run.stdin } : {}),
    onLine: (raw) => {
      if (!raw.trim()) return undefined;
      const line = redactor.text(raw);
      if (transcript) writeLine(transcript, line);
      let stop = false;
      for (const event of run.parse(line)) {
        events.push(event);
        if (event.kind === "init") init = event;
        if (event.kind === "result") result = event;
        if (request.onEvent?.(event) === "stop") stop = true;
      }
      return stop ? "stop" : undefined;
    },
  });
  const sandbox = await sandboxed?.close();
  if (transcript) await new Promise<void>((resolve) => transcript.end(resolve));
  return runResultOf({ proc, events, init, result, redactor, classify: run.classify, sandbox });
}

/**
 * A stream parser whose `init` carries what the run knows and the agent's stream does not say (model, skills,
 * version, mode), and whose `result` may be completed (a price).
 */
export function withRunFacts(
  parse: (line: string) => AgentEvent[],
  init: (parsed: InitEvent) => InitEvent,
  result: (parsed: ResultEvent) => ResultEvent = (parsed) => parsed,
): (line: string) => AgentEvent[] {
  return (line) =>
    parse(line).map((event) =>
      event.kind === "init" ? init(event) : event.kind === "result" ? result(event) : event,
    );
}
