import { execFile } from "node:child_process";

import { join } from "node:path";
import { promisify } from "node:util";
import { SIM_MODEL } from "../../contracts/sim-model.js";
import { exists } from "../../fs-probe.js";
import { createRedactor } from "../../redact.js";
import type { Agent, AgentRunRequest, AgentRunResult } from "../agent.js";
import { listSkills } from "../skill-folders.js";
import { runAgentStream, withRunFacts } from "../stream-run.js";
import { approvalMode, copilotArgs } from "./args.js";
import { commandLine, copilotVersion, locateCopilot } from "./binary.js";
import { classifyCopilotEnd } from "./classify.js";
import { type CopilotCredentials, copilotSecrets, findCopilotCredentials } from "./credentials.js";
import { copilotEnvironment, homeFiles, prepareCopilotHome, userPackageCache } from "./environment.js";
import { createCopilotParser } from "./parse-stream.js";
import { copilotBuiltinSkills, copilotSkillRoots } from "./skills.js";
import { readUsageFile, withUsage } from "./usage.js";

export interface CopilotOptions {
  /** Path of the copilot binary; default: the native one npm installed, then `copilot` on PATH. */
  binary?: string;
  /** Base URL of `skillgym sim`; when set, every run talks to it and no credentials are needed. */
  simulatorUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Names of `env`'s variables every run gets besides the allowed ones (the suite's evals.json `env`). */
  passEnv?: readonly string[];
}

/** The name runs record when no --model was given: Copilot CLI then picks its own. */
export const COPILOT_DEFAULT_MODEL = "copilot-default";

// Copilot CLI unpacks its package (~235 MB, ~10 s) on its first start; done once here, so parallel runs find it.
async function unpackOnce(
  binary: string,
  cache: string,
  version: string | undefined,
  env: NodeJS.ProcessEnv,
) {
  const platform = `${process.platform}-${process.arch}`;
  if (version && (await exists(join(cache, "pkg", platform, version)))) return;
  const line = commandLine(binary, ["--version"]);
  await promisify(execFile)(line.command, line.args, {
    env: { ...env, COPILOT_PKG_CACHE_HOME: cache, COPILOT_AUTO_UPDATE: "false" },
    timeout: 120_000,
  }).catch(() => undefined);
}

/** Locates the binary and the credentials once; fails fast (exit 3) when either is missing. */
export async function createCopilotAgent(options: CopilotOptions = {}): Promise<Agent> {
  const baseEnv = options.env ?? process.env;
  const binary = await locateCopilot(options.binary, baseEnv);
  const simulated = Boolean(options.simulatorUrl);
  const credentials: CopilotCredentials = simulated ? { kind: "simulator" } : findCopilotCredentials(baseEnv);
  const redactor = createRedactor(simulated ? [] : copilotSecrets(baseEnv));
  const version = await copilotVersion(binary);
  const packageCache = userPackageCache(baseEnv);
  await unpackOnce(binary, packageCache, version, baseEnv);

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    await prepareCopilotHome(request.home, request.systemPrompt);
    const files = homeFiles(request.home);
    const simModel = request.model ?? SIM_MODEL;
    const simulator = options.simulatorUrl ? { url: options.simulatorUrl, model: simModel } : undefined;
    const model = simulator ? simModel : request.model;
    const skills = [
      ...(await listSkills(await copilotSkillRoots(request.cwd, request.home))),
      ...copilotBuiltinSkills,
    ];
    const parse = createCopilotParser();
    const ran = await runAgentStream({
      ...commandLine(
        binary,
        copilotArgs({ prompt: request.prompt, model, tools: request.tools, usageFile: files.usage }),
      ),
      env: copilotEnvironment({
        base: baseEnv,
        home: request.home,
        packageCache,
        ...(simulator ? { simulator } : {}),
        ...(options.passEnv ? { passEnv: options.passEnv } : {}),
      }),
      request,
      redactor,
      // The stream names the model only after the first answer; the run knows it, and the skills it can see.
      parse: withRunFacts(parse, (init) => ({
        ...init,
        model: model ?? COPILOT_DEFAULT_MODEL,
        skills: [...new Set([...init.skills, ...skills])],
        ...(version ? { version } : {}),
        mode: approvalMode(request.tools),
      })),
      classify: classifyCopilotEnd,
    });
    return addUsage(ran, files.usage, credentials);
  }

  return {
    name: "copilot",
    mode: approvalMode("eval"),
    ...(version ? { version } : {}),
    skillsFolder: ".github/skills",
    binary,
    simulated,
    redactor,
    run,
  };
}

// The stream carries no tokens: Copilot CLI writes them to the usage file as it exits (not when it is stopped).
async function addUsage(
  ran: AgentRunResult,
  usageFile: string,
  credentials: CopilotCredentials,
): Promise<AgentRunResult> {
  if (!ran.result) return ran;
  const models = await readUsageFile(usageFile);
  if (!models) return ran;
  const result = withUsage(ran.result, models);
  // Copilot's own models are billed by premium requests of a subscription, not by tokens at list price.
  const priced = credentials.kind === "github-token" ? withoutCost(result) : result;
  return { ...ran, result: priced, events: ran.events.map((e) => (e === ran.result ? priced : e)) };
}

function withoutCost<T extends { costUsd?: number }>(result: T): T {
  const { costUsd: _, ...rest } = result;
  return rest as T;
}
