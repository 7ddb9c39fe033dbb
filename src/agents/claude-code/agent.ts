import { createWriteStream } from "node:fs";
import { SIM_MODEL } from "../../sim/encode.js";
import type { Agent, AgentRunRequest, AgentRunResult, InitEvent, ResultEvent } from "../agent.js";
import type { AgentEvent } from "../events.js";
import { runProcess } from "../process/run-process.js";
import { createRedactor } from "../redact.js";
import { locateClaude } from "./binary.js";
import { classifyEnd } from "./classify.js";
import { type Credentials, credentialSecrets, findCredentials } from "./credentials.js";
import { childEnvironment, prepareHome } from "./environment.js";
import { parseStreamLine } from "./parse-stream.js";

export interface ClaudeCodeOptions {
  /** Path of the claude binary; default: the bundled one, then `claude` on PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; when set, every run talks to it and no credentials are needed. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Tools approved without a prompt; works as root, unlike bypass mode. */
  allowedTools?: string[];
}

export const defaultAllowedTools = [
  "Bash",
  "Edit",
  "MultiEdit",
  "Write",
  "Read",
  "Glob",
  "Grep",
  "Skill",
  "NotebookEdit",
  "TodoWrite",
  "Task",
  "Agent",
];

export function claudeArgs(
  request: { prompt: string; model?: string | undefined; streamUsage?: boolean | undefined },
  allowedTools: string[],
): string[] {
  const args = [
    "-p",
    request.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--allowedTools",
    allowedTools.join(" "),
  ];
  if (request.model) args.push("--model", request.model);
  if (request.streamUsage) args.push("--include-partial-messages");
  return args;
}

function writeLine(stream: NodeJS.WritableStream, line: string): void {
  stream.write(line.endsWith("\n") ? line : `${line}\n`);
}

/** Locates the binary and the credentials once; fails fast (exit 3) when either is missing. */
export async function createClaudeCodeAgent(options: ClaudeCodeOptions = {}): Promise<Agent> {
  const baseEnv = options.env ?? process.env;
  const binary = await locateClaude(options.binary, baseEnv);
  const credentials: Credentials = options.simulatorUrl
    ? { kind: "simulator" }
    : await findCredentials(baseEnv);
  const allowedTools = options.allowedTools ?? defaultAllowedTools;
  const simulator = options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {};
  // The credentials are the same for every run (only the home differs), so one redactor serves them all.
  const redactor = createRedactor(
    await credentialSecrets(
      credentials,
      childEnvironment({ base: baseEnv, home: "", credentials, ...simulator }),
    ),
  );

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    await prepareHome(request.home, credentials);
    const env = childEnvironment({ base: baseEnv, home: request.home, credentials, ...simulator });
    const transcript = createWriteStream(request.transcriptPath);
    const events: AgentEvent[] = [];
    let init: InitEvent | undefined;
    let result: ResultEvent | undefined;
    const proc = await runProcess({
      command: binary,
      args: claudeArgs(
        {
          prompt: request.prompt,
          model: request.model ?? (options.simulatorUrl ? SIM_MODEL : undefined),
          streamUsage: request.streamUsage,
        },
        allowedTools,
      ),
      cwd: request.cwd,
      env,
      timeoutMs: request.timeoutMs,
      ...(request.signal ? { signal: request.signal } : {}),
      killGraceMs: 1500,
      onLine: (raw) => {
        if (!raw.trim()) return undefined;
        const line = redactor.text(raw);
        writeLine(transcript, line);
        let stop = false;
        for (const event of parseStreamLine(line)) {
          events.push(event);
          if (event.kind === "init") init = event;
          if (event.kind === "result") result = event;
          if (request.onEvent?.(event) === "stop") stop = true;
        }
        return stop ? "stop" : undefined;
      },
    });
    await new Promise<void>((resolve) => transcript.end(resolve));
    const end = classifyEnd(proc, result);
    return {
      outcome: end.outcome,
      ...(end.message !== undefined ? { message: redactor.text(end.message) } : {}),
      events,
      ...(init ? { init } : {}),
      ...(result ? { result } : {}),
      process: { ...proc, stderrTail: redactor.text(proc.stderrTail) },
    };
  }

  return {
    name: "claude-code",
    skillsFolder: ".claude/skills",
    binary,
    simulated: Boolean(options.simulatorUrl),
    redactor,
    run,
  };
}
