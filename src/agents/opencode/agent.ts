import { SIM_MODEL } from "../../contracts/sim-model.js";
import { createRedactor } from "../../redact.js";
import type { Agent, AgentRunRequest, AgentRunResult, ResultEvent } from "../agent.js";
import { costOf } from "../pricing.js";
import { listSkills } from "../skill-folders.js";
import { runAgentStream, withRunFacts } from "../stream-run.js";
import { modelIdOf, openCodeArgs } from "./args.js";
import { locateOpenCode, openCodeVersion } from "./binary.js";
import { classifyOpenCodeEnd } from "./classify.js";
import { findOpenCodeCredentials, type OpenCodeCredentials, openCodeSecrets } from "./credentials.js";
import { openCodeEnvironment, permissionMode, prepareOpenCodeHome, SIM_PROVIDER } from "./environment.js";
import { createOpenCodeParser } from "./parse-stream.js";
import { findRipgrep, RIPGREP_WARNING } from "./ripgrep.js";
import { openCodeBuiltinSkills, openCodeSkillRoots } from "./skills.js";

export interface OpenCodeOptions {
  /** Path of the opencode binary; default: the native one npm installed, then `opencode` on PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; when set, every run talks to it and no credentials are needed. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Names of `env`'s variables every run gets besides the allowed ones (the suite's evals.json `env`). */
  passEnv?: readonly string[];
}

/** The name runs record when no --model was given: OpenCode then picks its own default. */
export const OPENCODE_DEFAULT_MODEL = "opencode-default";

/** Locates the binary, ripgrep and the credentials once; fails fast (exit 3) when the binary or a login is missing. */
export async function createOpenCodeAgent(
  options: OpenCodeOptions = {},
  findRg: typeof findRipgrep = findRipgrep,
): Promise<Agent> {
  const baseEnv = options.env ?? process.env;
  const binary = await locateOpenCode(options.binary, baseEnv);
  const simulated = Boolean(options.simulatorUrl);
  const credentials: OpenCodeCredentials = simulated
    ? { kind: "simulator" }
    : await findOpenCodeCredentials(baseEnv);
  const redactor = createRedactor(await openCodeSecrets(credentials, baseEnv));
  const version = await openCodeVersion(binary);
  const ripgrep = await findRg(baseEnv);

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    const tools = request.tools ?? "eval";
    // Under the simulator the model is the simulator's provider, named as it was asked for.
    const simModel = request.model ?? SIM_MODEL;
    const simulator = options.simulatorUrl ? { url: options.simulatorUrl, model: simModel } : undefined;
    await prepareOpenCodeHome({
      home: request.home,
      tools,
      credentials,
      systemPrompt: request.systemPrompt,
      ripgrep: ripgrep && !ripgrep.onPath ? ripgrep.path : undefined,
      ...(simulator ? { simulator } : {}),
    });
    const model = simulator ? `${SIM_PROVIDER}/${simModel}` : request.model;
    const recorded = simulator ? simModel : (request.model ?? OPENCODE_DEFAULT_MODEL);
    const skills = [
      ...(await listSkills(await openCodeSkillRoots(request.cwd, request.home))),
      ...openCodeBuiltinSkills,
    ];
    const parse = createOpenCodeParser();
    return runAgentStream({
      command: binary,
      args: openCodeArgs({ cwd: request.cwd, model }),
      stdin: request.prompt,
      env: {
        ...openCodeEnvironment({
          base: baseEnv,
          home: request.home,
          simulated,
          model: request.model,
          ...(options.passEnv ? { passEnv: options.passEnv } : {}),
        }),
        PWD: request.cwd,
      },
      request,
      redactor,
      // OpenCode's stream names neither the model nor the skills; the run knows both.
      parse: withRunFacts(
        parse,
        (init) => ({
          ...init,
          model: recorded,
          skills,
          ...(version ? { version } : {}),
          mode: permissionMode(tools),
        }),
        (result) => withCost(result, simulator ? SIM_MODEL : request.model),
      ),
      classify: classifyOpenCodeEnd,
    });
  }

  return {
    name: "opencode",
    mode: permissionMode("eval"),
    ...(version ? { version } : {}),
    // OpenCode also reads .opencode/skills, but writes a .gitignore into every .opencode folder it finds.
    skillsFolder: ".agents/skills",
    binary,
    simulated,
    redactor,
    ...(ripgrep ? {} : { warnings: [RIPGREP_WARNING] }),
    run,
  };
}

function withCost(result: ResultEvent, model: string | undefined): ResultEvent {
  // Without --model OpenCode uses its own default, which its stream never names: the price is unknown.
  const cost = model ? costOf(modelIdOf(model), result.usage) : undefined;
  return cost === undefined ? result : { ...result, costUsd: cost };
}
