import { SIM_MODEL } from "../../contracts/sim-model.js";
import { createRedactor } from "../../redact.js";
import type { Agent, AgentRunRequest, AgentRunResult } from "../agent.js";
import { runAgentStream } from "../stream-run.js";
import { claudeArgs, defaultAllowedTools } from "./args.js";
import { bundledVersion, locateClaude } from "./binary.js";
import { classifyEnd } from "./classify.js";
import { type Credentials, credentialSecrets, findCredentials } from "./credentials.js";
import { childEnvironment, prepareHome } from "./environment.js";
import { parseEvents } from "./normalise.js";
import { writeSessionFile } from "./session-file.js";

export { claudeArgs, defaultAllowedTools };

export interface ClaudeCodeOptions {
  /** Path of the claude binary; default: the bundled one, then `claude` on PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; when set, every run talks to it and no credentials are needed. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Names of `env`'s variables every run gets besides the allowed ones (the suite's evals.json `env`). */
  passEnv?: readonly string[];
  /** Tools approved without a prompt in an eval run; works as root, unlike bypass mode. */
  allowedTools?: string[];
}

/** Locates the binary and the credentials once; fails fast (exit 3) when either is missing. */
export async function createClaudeCodeAgent(options: ClaudeCodeOptions = {}): Promise<Agent> {
  const baseEnv = options.env ?? process.env;
  const binary = await locateClaude(options.binary, baseEnv);
  const credentials: Credentials = options.simulatorUrl
    ? { kind: "simulator" }
    : await findCredentials(baseEnv);
  const allowedTools = options.allowedTools ?? defaultAllowedTools;
  const envOptions = {
    ...(options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {}),
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
  };
  // The credentials are the same for every run (only the home differs), so one redactor serves them all.
  const redactor = createRedactor(
    await credentialSecrets(
      credentials,
      // Stryker disable next-line StringLiteral: equivalent, the home only sets HOME, USERPROFILE and CLAUDE_CONFIG_DIR, no credential variable
      childEnvironment({ base: baseEnv, home: "", credentials, ...envOptions }),
    ),
  );
  const version = await bundledVersion(binary);

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    await prepareHome(request.home, credentials);
    // A prior conversation goes in as a session of the run's home, which `--resume` continues: never into the prompt.
    const resume = request.history?.length
      ? await writeSessionFile(request.home, request.cwd, request.history)
      : undefined;
    const env = {
      ...childEnvironment({ base: baseEnv, home: request.home, credentials, ...envOptions }),
      ...(request.apiBaseUrl ? { ANTHROPIC_BASE_URL: request.apiBaseUrl } : {}),
    };
    return runAgentStream({
      command: binary,
      args: claudeArgs(
        {
          prompt: request.prompt,
          model: request.model ?? (options.simulatorUrl ? SIM_MODEL : undefined),
          streamUsage: request.streamUsage,
          tools: request.tools,
          systemPrompt: request.systemPrompt,
          resume,
        },
        allowedTools,
      ),
      env,
      request,
      redactor,
      parse: parseEvents,
      classify: classifyEnd,
    });
  }

  return {
    name: "claude-code",
    ...(version ? { version } : {}),
    skillsFolder: ".claude/skills",
    binary,
    simulated: Boolean(options.simulatorUrl),
    continuesConversations: true,
    apiBaseUrl: options.simulatorUrl ?? baseEnv.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com",
    redactor,
    run,
  };
}
