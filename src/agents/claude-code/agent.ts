import { createWriteStream } from "node:fs";
import { SIM_MODEL } from "../../contracts/sim-model.js";
import type { Agent, AgentRunRequest, AgentRunResult, InitEvent, ResultEvent } from "../agent.js";
import type { AgentEvent } from "../events.js";
import { endMarkedProcesses, newRunMarker } from "../process/marked-processes.js";
import { runProcess } from "../process/run-process.js";
import { createRedactor } from "../redact.js";
import { claudeArgs, defaultAllowedTools } from "./args.js";
import { bundledVersion, locateClaude } from "./binary.js";
import { classifyEnd } from "./classify.js";
import { type Credentials, credentialSecrets, findCredentials } from "./credentials.js";
import { childEnvironment, prepareHome } from "./environment.js";
import { parseEvents } from "./normalise.js";

export { claudeArgs, defaultAllowedTools };

export interface ClaudeCodeOptions {
  /** Path of the claude binary; default: the bundled one, then `claude` on PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; when set, every run talks to it and no credentials are needed. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Tools approved without a prompt in an eval run; works as root, unlike bypass mode. */
  allowedTools?: string[];
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
  const version = await bundledVersion(binary);

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    await prepareHome(request.home, credentials);
    const marker = newRunMarker();
    const env = {
      ...childEnvironment({ base: baseEnv, home: request.home, credentials, ...simulator }),
      [marker.variable]: marker.value,
    };
    const transcript = request.transcriptPath ? createWriteStream(request.transcriptPath) : undefined;
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
          tools: request.tools,
          systemPrompt: request.systemPrompt,
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
        if (transcript) writeLine(transcript, line);
        let stop = false;
        for (const event of parseEvents(line)) {
          events.push(event);
          if (event.kind === "init") init = event;
          if (event.kind === "result") result = event;
          if (request.onEvent?.(event) === "stop") stop = true;
        }
        return stop ? "stop" : undefined;
      },
    });
    if (transcript) await new Promise<void>((resolve) => transcript.end(resolve));
    // Claude Code runs Bash commands in a session of their own, which ending its process group does not reach.
    await endMarkedProcesses(marker.entry);
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
    ...(version ? { version } : {}),
    skillsFolder: ".claude/skills",
    binary,
    simulated: Boolean(options.simulatorUrl),
    redactor,
    run,
  };
}
