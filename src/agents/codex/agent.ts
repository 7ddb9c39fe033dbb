import { SIM_MODEL } from "../../contracts/sim-model.js";
import { createRedactor } from "../../redact.js";
import type { Agent, AgentRunRequest, AgentRunResult, ResultEvent } from "../agent.js";
import { costOf } from "../pricing.js";
import { runAgentStream, withRunFacts } from "../stream-run.js";
import { codexArgs, sandboxFor, simulatorApiUrl } from "./args.js";
import { codexVersion, locateCodex } from "./binary.js";
import { classifyCodexEnd } from "./classify.js";
import { type CodexCredentials, codexCredentialSecrets, findCodexCredentials } from "./credentials.js";
import { codexEnvironment, prepareCodexHome, visibleSkills } from "./environment.js";
import { missingMountPoints, removeLeftMountPoints } from "./leftovers.js";
import { createCodexParser } from "./parse-stream.js";

export interface CodexOptions {
  /** Path of the codex binary; default: the native one npm installed, then `codex` on PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; when set, every run talks to it and no credentials are needed. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Names of `env`'s variables every run gets besides the allowed ones (the suite's evals.json `env`). */
  passEnv?: readonly string[];
}

/** The name runs record when no --model was given: Codex then uses its own configured default. */
export const CODEX_DEFAULT_MODEL = "codex-default";

/** Locates the binary and the credentials once; fails fast (exit 3) when either is missing. */
export async function createCodexAgent(options: CodexOptions = {}): Promise<Agent> {
  const baseEnv = options.env ?? process.env;
  const binary = await locateCodex(options.binary, baseEnv);
  const credentials: CodexCredentials = options.simulatorUrl
    ? { kind: "simulator" }
    : await findCodexCredentials(baseEnv);
  const envOptions = {
    ...(options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {}),
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
  };
  const redactor = createRedactor(
    await codexCredentialSecrets(
      credentials,
      // Stryker disable next-line StringLiteral: equivalent, the secrets are read from key variables, never the home
      codexEnvironment({ base: baseEnv, home: "", credentials, ...envOptions }),
    ),
  );
  const version = await codexVersion(binary);

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    await prepareCodexHome(request.home, credentials);
    const env = {
      ...codexEnvironment({ base: baseEnv, home: request.home, credentials, ...envOptions }),
      // A run sent elsewhere (a recording proxy) must not be sent back by the user's own variable.
      ...(request.apiBaseUrl && !options.simulatorUrl ? { OPENAI_BASE_URL: request.apiBaseUrl } : {}),
    };
    const missingBefore = await missingMountPoints(request.cwd);
    const model = request.model ?? (options.simulatorUrl ? SIM_MODEL : undefined);
    const skills = await visibleSkills(request.cwd, request.home);
    const parse = createCodexParser();
    const ran = await runAgentStream({
      command: binary,
      args: codexArgs({
        prompt: request.prompt,
        model,
        tools: request.tools,
        systemPrompt: request.systemPrompt,
        simulatorUrl: options.simulatorUrl,
        apiBaseUrl: request.apiBaseUrl,
      }),
      env,
      request,
      redactor,
      // Codex's stream names neither the model nor the skills; the run knows both.
      parse: withRunFacts(
        parse,
        (init) => ({
          ...init,
          model: model ?? CODEX_DEFAULT_MODEL,
          tools: ["exec_command", "apply_patch"],
          skills,
          ...(version ? { version } : {}),
          mode: modeOf(request.tools),
        }),
        (result) => withCost(result, model),
      ),
      classify: classifyCodexEnd,
    });
    await removeLeftMountPoints(request.cwd, missingBefore);
    return ran;
  }

  return {
    name: "codex",
    mode: modeOf("eval"),
    ...(version ? { version } : {}),
    skillsFolder: ".agents/skills",
    binary,
    simulated: Boolean(options.simulatorUrl),
    // Codex's base URL includes `/v1`: its requests go to `<base>/responses`.
    apiBaseUrl: options.simulatorUrl
      ? simulatorApiUrl(options.simulatorUrl)
      : baseEnv.OPENAI_BASE_URL || "https://api.openai.com/v1",
    redactor,
    run,
  };
}

/** The sandbox and approval policy a run used, as its records say. */
function modeOf(tools: AgentRunRequest["tools"]): string {
  return `sandbox ${sandboxFor(tools)}, approval never`;
}

function withCost(result: ResultEvent, model: string | undefined): ResultEvent {
  // Without --model Codex uses the user's configured default, which its stream never names: the price is unknown.
  const cost = model ? costOf(model, result.usage) : undefined;
  return cost === undefined ? result : { ...result, costUsd: cost };
}
