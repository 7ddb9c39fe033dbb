import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToolPolicy } from "../agent.js";
import { allowedEnvironment, type EnvAllowList, suiteNames } from "../allowed-env.js";
import type { GeminiCredentials } from "./credentials.js";
import { policyToml } from "./policy.js";

export interface GeminiEnvOptions {
  base: NodeJS.ProcessEnv;
  home: string;
  credentials: GeminiCredentials;
  simulatorUrl?: string;
  /** Names of the parent's variables the suite passes on (evals.json `env`). */
  passEnv?: readonly string[];
}

/** What of the parent's environment a real (not simulated) Gemini CLI run may see besides the base. */
export const GEMINI_VARIABLES: EnvAllowList = {
  prefixes: ["GEMINI_", "GOOGLE_CLOUD_"],
  names: [
    "GOOGLE_API_KEY",
    "GOOGLE_GENAI_USE_VERTEXAI",
    "GOOGLE_GENAI_USE_GCA",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "GOOGLE_GEMINI_BASE_URL",
  ],
};

/** The files of a run's home: settings and the tool policy. */
export interface GeminiHomeFiles {
  settings: string;
  policy: string;
}

// Variables that point the child at the user's own config or another backend must not pass.
const DROPPED = [
  "GEMINI_CLI_HOME",
  "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
  "GEMINI_SYSTEM_MD",
  "GEMINI_CLI_IDE_SERVER_PORT",
];
const SIMULATOR_DROPPED = [
  "GOOGLE_API_KEY",
  "GOOGLE_GENAI_USE_VERTEXAI",
  "GOOGLE_GENAI_USE_GCA",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CLOUD_PROJECT",
  "GEMINI_MODEL",
];
const SIMULATOR_KEY = "skillgym-simulator-key";

export function homeFiles(home: string): GeminiHomeFiles {
  return { settings: join(home, ".gemini", "settings.json"), policy: join(home, "skillgym-policy.toml") };
}

/** A fresh home per run keeps the user's skills and settings out; only allowed variables pass. */
export function childEnvironment(options: GeminiEnvOptions): NodeJS.ProcessEnv {
  const own = options.simulatorUrl ? [] : [GEMINI_VARIABLES];
  const env = allowedEnvironment(options.base, suiteNames(options.passEnv), ...own);
  for (const key of DROPPED) delete env[key];
  env.HOME = options.home;
  env.USERPROFILE = options.home;
  env.GEMINI_CLI_HOME = options.home;
  // The run's settings as system settings: they win over a workspace's .gemini/settings.json (which could hide skills).
  env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = homeFiles(options.home).settings;
  // Gemini CLI writes an error report per failed API call to the temp folder: the run's own, removed with it.
  env.TMPDIR = join(options.home, "tmp");
  env.GEMINI_CLI_TRUST_WORKSPACE = "true";
  env.GEMINI_CLI_NO_RELAUNCH = "true";
  if (options.simulatorUrl) {
    for (const key of SIMULATOR_DROPPED) delete env[key];
    env.GOOGLE_GEMINI_BASE_URL = options.simulatorUrl;
    env.GEMINI_API_KEY = SIMULATOR_KEY;
  }
  return env;
}

/** The settings of every run: API-key auth (else it exits "Invalid auth method selected"), skills on, no nagging. */
export function runSettings(simulated: boolean): object {
  return {
    security: { auth: { selectedType: "gemini-api-key" } },
    skills: { enabled: true },
    // Faults injected by the simulator reach skillgym's own retry logic instead of Gemini CLI's.
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      ...(simulated ? { maxAttempts: 1 } : {}),
    },
    privacy: { usageStatisticsEnabled: false },
  };
}

export async function prepareHome(
  home: string,
  tools: ToolPolicy,
  simulated: boolean,
): Promise<GeminiHomeFiles> {
  const files = homeFiles(home);
  await mkdir(join(home, ".gemini"), { recursive: true });
  await mkdir(join(home, "tmp"), { recursive: true });
  await writeFile(files.settings, `${JSON.stringify(runSettings(simulated), null, 2)}\n`, "utf8");
  await writeFile(files.policy, policyToml(tools), "utf8");
  return files;
}
