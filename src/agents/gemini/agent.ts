import { createWriteStream } from "node:fs";
import { homedir } from "node:os";
import { SIM_MODEL } from "../../contracts/sim-model.js";
import type { Agent, AgentRunRequest, AgentRunResult, InitEvent, ResultEvent } from "../agent.js";
import type { AgentEvent } from "../events.js";
import { runProcess } from "../process/run-process.js";
import { createRedactor, environmentSecrets } from "../redact.js";
import { geminiArgs } from "./args.js";
import { builtinSkillsDir, commandLine, geminiVersion, locateGemini } from "./binary.js";
import { classifyGeminiEnd } from "./classify.js";
import { findGeminiCredentials, type GeminiCredentials } from "./credentials.js";
import { childEnvironment, prepareHome } from "./environment.js";
import { createGeminiStreamParser } from "./parse-stream.js";
import { approvalMode } from "./policy.js";
import { listSkills, skillRoots, userSettingsWarning } from "./skills.js";

export interface GeminiOptions {
  /** Path of the gemini binary; default: the package installed beside skillgym, then `gemini` on PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; when set, every run talks to it and no credentials are needed. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
}

function writeLine(stream: NodeJS.WritableStream, line: string): void {
  stream.write(line.endsWith("\n") ? line : `${line}\n`);
}

/** Locates the binary and the credentials once; fails fast (exit 3) when either is missing. */
export async function createGeminiAgent(options: GeminiOptions = {}): Promise<Agent> {
  const baseEnv = options.env ?? process.env;
  const binary = await locateGemini(options.binary, baseEnv);
  const credentials: GeminiCredentials = options.simulatorUrl
    ? { kind: "simulator" }
    : findGeminiCredentials(baseEnv);
  const simulated = Boolean(options.simulatorUrl);
  const simulator = options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {};
  const redactor = createRedactor(
    environmentSecrets(childEnvironment({ base: baseEnv, home: "", credentials, ...simulator })),
  );
  const version = await geminiVersion(binary);
  const warning = await userSettingsWarning(baseEnv.HOME ?? homedir());
  const builtins = await listSkills([builtinSkillsDir(binary)]);

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    const tools = request.tools ?? "eval";
    const files = await prepareHome(request.home, tools, simulated);
    const env = childEnvironment({ base: baseEnv, home: request.home, credentials, ...simulator });
    // Gemini CLI's init line names no skills; these are the ones it finds in the run's workspace and home.
    const skills = [...(await listSkills(skillRoots(request.cwd, request.home))), ...builtins];
    const transcript = request.transcriptPath ? createWriteStream(request.transcriptPath) : undefined;
    const parse = createGeminiStreamParser();
    const events: AgentEvent[] = [];
    let init: InitEvent | undefined;
    let result: ResultEvent | undefined;
    const args = geminiArgs({
      prompt: request.prompt,
      model: request.model ?? (simulated ? SIM_MODEL : undefined),
      policyFile: files.policy,
      systemPrompt: request.systemPrompt,
    });
    const proc = await runProcess({
      ...commandLine(binary, args),
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
        for (const parsed of parse(line)) {
          const event: AgentEvent =
            parsed.kind === "init" ? { ...parsed, skills, ...(version ? { version } : {}) } : parsed;
          events.push(event);
          if (event.kind === "init") init = event;
          if (event.kind === "result") result = event;
          if (request.onEvent?.(event) === "stop") stop = true;
        }
        return stop ? "stop" : undefined;
      },
    });
    if (transcript) await new Promise<void>((resolve) => transcript.end(resolve));
    const end = classifyGeminiEnd(proc, result);
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
    name: "gemini",
    ...(version ? { version } : {}),
    skillsFolder: ".gemini/skills",
    binary,
    simulated,
    redactor,
    mode: approvalMode("eval"),
    ...(warning ? { warnings: [warning] } : {}),
    run,
  };
}
