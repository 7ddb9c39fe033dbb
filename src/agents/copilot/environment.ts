import { mkdir, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { allowedEnvironment, type EnvAllowList, suiteNames } from "../allowed-env.js";
import { COPILOT_SECRET_VARIABLES, COPILOT_TOKEN_VARIABLES } from "./credentials.js";

export interface CopilotEnvOptions {
  base: NodeJS.ProcessEnv;
  home: string;
  /** The shared folder Copilot CLI unpacks its package into (`<dir>/pkg/<platform>/<version>`). */
  packageCache: string;
  simulator?: { url: string; model: string };
  /** Names of the parent's variables the suite passes on (evals.json `env`). */
  passEnv?: readonly string[];
}

/**
 * What of the parent's environment a real (not simulated) Copilot CLI run may see besides the base: its own settings
 * and its GitHub token, which on CI is the repository's and so goes to no other agent.
 */
export const COPILOT_VARIABLES: EnvAllowList = { prefixes: ["COPILOT_"], names: COPILOT_TOKEN_VARIABLES };

const SIM_KEY = "sk-skillgym-simulator";

// Variables that would point the child at the user's own config, another package or another model endpoint.
const DROPPED = [
  "COPILOT_HOME",
  "COPILOT_CUSTOM_INSTRUCTIONS_DIRS",
  "COPILOT_CLI_DIST_DIR",
  "COPILOT_ALLOW_ALL",
  "COPILOT_ASSISTED_APPROVAL",
  "XDG_CONFIG_HOME",
  "XDG_STATE_HOME",
];
const PROVIDER_VARIABLES = [
  "COPILOT_PROVIDER_BASE_URL",
  "COPILOT_PROVIDER_TYPE",
  "COPILOT_PROVIDER_API_KEY_COMMAND",
  "COPILOT_PROVIDER_WIRE_API",
  "COPILOT_PROVIDER_TRANSPORT",
  "COPILOT_PROVIDER_HEADERS",
  "COPILOT_PROVIDER_MODEL_ID",
  "COPILOT_PROVIDER_WIRE_MODEL",
  "COPILOT_PROVIDER_AZURE_API_VERSION",
  "COPILOT_MODEL",
];

/** Copilot CLI's home inside a run's home: config, logs, sessions and the run's instructions. */
export function copilotHomeOf(home: string): string {
  return join(home, ".copilot");
}

export function homeFiles(home: string) {
  return {
    /** Copilot CLI adds this file's text to its system prompt (`<custom_instruction>`). */
    instructions: join(copilotHomeOf(home), "copilot-instructions.md"),
    usage: join(home, "skillgym-usage.json"),
    tmp: join(home, "tmp"),
  };
}

/** Where a normal launch of the user's Copilot CLI unpacks its package: shared, so no run unpacks it again. */
export function userPackageCache(env: NodeJS.ProcessEnv): string {
  if (env.COPILOT_PKG_CACHE_HOME) return env.COPILOT_PKG_CACHE_HOME;
  return join(env.XDG_CACHE_HOME || join(env.HOME ?? homedir(), ".cache"), "copilot");
}

/** A fresh HOME and COPILOT_HOME per run keep the user's skills, settings and sessions out; credentials pass. */
export function copilotEnvironment(options: CopilotEnvOptions): NodeJS.ProcessEnv {
  const own = options.simulator ? [] : [COPILOT_VARIABLES];
  const env = allowedEnvironment(options.base, suiteNames(options.passEnv), ...own);
  for (const key of DROPPED) delete env[key];
  env.HOME = options.home;
  env.USERPROFILE = options.home;
  env.COPILOT_HOME = copilotHomeOf(options.home);
  env.XDG_CACHE_HOME = join(options.home, ".cache");
  env.COPILOT_PKG_CACHE_HOME = options.packageCache;
  // File tools may reach the working folder and the temporary folder: the run's own.
  env.TMPDIR = homeFiles(options.home).tmp;
  env.COPILOT_AUTO_UPDATE = "false";
  if (options.simulator) {
    for (const key of [...COPILOT_SECRET_VARIABLES, ...PROVIDER_VARIABLES]) delete env[key];
    // No network but the simulator: without it Copilot CLI waits on github.com before the first model request.
    env.COPILOT_OFFLINE = "true";
    env.COPILOT_PROVIDER_BASE_URL = `${options.simulator.url.replace(/\/+$/, "")}/agents/v1`;
    env.COPILOT_PROVIDER_API_KEY = SIM_KEY;
    env.COPILOT_MODEL = options.simulator.model;
  }
  return env;
}

export async function prepareCopilotHome(home: string, systemPrompt: string | undefined): Promise<void> {
  const files = homeFiles(home);
  await mkdir(copilotHomeOf(home), { recursive: true });
  await mkdir(files.tmp, { recursive: true });
  if (systemPrompt !== undefined) await writeFile(files.instructions, systemPrompt, "utf8");
}
