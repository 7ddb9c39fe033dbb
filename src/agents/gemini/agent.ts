import { homedir } from "node:os";
import { SIM_MODEL } from "../../contracts/sim-model.js";
import { createRedactor, environmentSecrets } from "../../redact.js";
import type { Agent, AgentRunRequest, AgentRunResult } from "../agent.js";
import { listSkills } from "../skill-folders.js";
import { runAgentStream, withRunFacts } from "../stream-run.js";
import { geminiArgs } from "./args.js";
import { builtinSkillsDir, commandLine, geminiVersion, locateGemini } from "./binary.js";
import { classifyGeminiEnd } from "./classify.js";
import { findGeminiCredentials, type GeminiCredentials } from "./credentials.js";
import { childEnvironment, prepareHome } from "./environment.js";
import { createGeminiStreamParser } from "./parse-stream.js";
import { approvalMode } from "./policy.js";
import { writeSessionFile } from "./session-file.js";
import { skillRoots, userSettingsWarning } from "./skills.js";

// Where Gemini CLI sends model requests by default (API-key auth: the Gemini API).
const GEMINI_API_URL = "https://generativelanguage.googleapis.com";

export interface GeminiOptions {
  /** Path of the gemini binary; default: the package installed beside skillgym, then `gemini` on PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; when set, every run talks to it and no credentials are needed. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Names of `env`'s variables every run gets besides the allowed ones (the suite's evals.json `env`). */
  passEnv?: readonly string[];
}

/** Locates the binary and the credentials once; fails fast (exit 3) when either is missing. */
export async function createGeminiAgent(options: GeminiOptions = {}): Promise<Agent> {
  const baseEnv = options.env ?? process.env;
  const binary = await locateGemini(options.binary, baseEnv);
  const credentials: GeminiCredentials = options.simulatorUrl
    ? { kind: "simulator" }
    : findGeminiCredentials(baseEnv);
  const simulated = Boolean(options.simulatorUrl);
  const envOptions = {
    ...(options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {}),
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
  };
  const redactor = createRedactor(
    // Stryker disable next-line StringLiteral: equivalent, the home sets no credential variable the redactor reads
    environmentSecrets(childEnvironment({ base: baseEnv, home: "", credentials, ...envOptions })),
  );
  const version = await geminiVersion(binary);
  const warning = await userSettingsWarning(baseEnv.HOME ?? homedir());
  const builtins = await listSkills([builtinSkillsDir(binary)]);

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    const tools = request.tools ?? "eval";
    const files = await prepareHome(request.home, tools, simulated);
    const env = {
      ...childEnvironment({ base: baseEnv, home: request.home, credentials, ...envOptions }),
      // A replay's capture run sends its model requests through a recording proxy in front of apiBaseUrl.
      ...(request.apiBaseUrl ? { GOOGLE_GEMINI_BASE_URL: request.apiBaseUrl } : {}),
    };
    // Gemini CLI's init line names no skills; these are the ones it finds in the run's workspace and home.
    const skills = [...(await listSkills(skillRoots(request.cwd, request.home))), ...builtins];
    // A prior conversation goes in as a session file in the run's home, which `--session-file` loads: never the prompt.
    const sessionFile = request.history?.length
      ? await writeSessionFile(request.home, request.history)
      : undefined;
    const parse = createGeminiStreamParser();
    const args = geminiArgs({
      prompt: request.prompt,
      model: request.model ?? (simulated ? SIM_MODEL : undefined),
      policyFile: files.policy,
      systemPrompt: request.systemPrompt,
      sessionFile,
    });
    return runAgentStream({
      ...commandLine(binary, args),
      env,
      request,
      redactor,
      parse: withRunFacts(parse, (init) => ({ ...init, skills, ...(version ? { version } : {}) })),
      classify: classifyGeminiEnd,
    });
  }

  return {
    name: "gemini",
    ...(version ? { version } : {}),
    skillsFolder: ".gemini/skills",
    binary,
    simulated,
    continuesConversations: true,
    apiBaseUrl: options.simulatorUrl ?? baseEnv.GOOGLE_GEMINI_BASE_URL ?? GEMINI_API_URL,
    redactor,
    mode: approvalMode("eval"),
    ...(warning ? { warnings: [warning] } : {}),
    run,
  };
}
