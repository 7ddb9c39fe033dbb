import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { allowedEnvironment, type EnvAllowList, suiteNames } from "../allowed-env.js";
import type { Credentials } from "./credentials.js";

export interface ChildEnvOptions {
  base: NodeJS.ProcessEnv;
  home: string;
  credentials: Credentials;
  simulatorUrl?: string;
  /** Names of the parent's variables the suite passes on (evals.json `env`). */
  passEnv?: readonly string[];
}

// Claude Code's own settings and credentials; a cloud provider's only when Claude Code is told to use it.
const CLAUDE_CODE_VARIABLES: EnvAllowList = {
  prefixes: ["ANTHROPIC_", "CLAUDE_CODE_"],
  names: ["MAX_THINKING_TOKENS", "BASH_DEFAULT_TIMEOUT_MS", "BASH_MAX_TIMEOUT_MS", "API_TIMEOUT_MS"],
};
const BEDROCK_VARIABLES: EnvAllowList = {
  names: [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_PROFILE",
    "AWS_CONFIG_FILE",
    "AWS_SHARED_CREDENTIALS_FILE",
  ],
};
const VERTEX_VARIABLES: EnvAllowList = {
  names: ["CLOUD_ML_REGION", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"],
  prefixes: ["VERTEX_REGION_"],
};

/** What of the parent's environment a real (not simulated) Claude Code run may see besides the base. */
export function claudeCodeVariables(parent: NodeJS.ProcessEnv): EnvAllowList[] {
  return [
    CLAUDE_CODE_VARIABLES,
    ...(parent.CLAUDE_CODE_USE_BEDROCK ? [BEDROCK_VARIABLES] : []),
    ...(parent.CLAUDE_CODE_USE_VERTEX ? [VERTEX_VARIABLES] : []),
  ];
}

// Variables of the parent's own Claude Code session, or that point the child at the user's config, must not pass.
const DROPPED = ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_SSE_PORT"];
const SIMULATOR_DROPPED = [
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "ANTHROPIC_MODEL",
];

/** A fresh home per run keeps the user's skills, settings and hooks out; only allowed variables pass. */
export function childEnvironment(options: ChildEnvOptions): NodeJS.ProcessEnv {
  const own = options.simulatorUrl ? [] : claudeCodeVariables(options.base);
  const env = allowedEnvironment(options.base, suiteNames(options.passEnv), ...own);
  for (const key of DROPPED) delete env[key];
  env.HOME = options.home;
  env.USERPROFILE = options.home;
  env.CLAUDE_CONFIG_DIR = join(options.home, ".claude");
  env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = "1";
  env.DISABLE_AUTOUPDATER = "1";
  if (options.simulatorUrl) {
    for (const key of SIMULATOR_DROPPED) delete env[key];
    env.ANTHROPIC_BASE_URL = options.simulatorUrl;
    env.ANTHROPIC_API_KEY = "sk-skillgym-simulator";
    // Faults injected by the simulator reach skillgym's own retry logic instead of Claude Code's.
    env.CLAUDE_CODE_MAX_RETRIES = "0";
  }
  return env;
}

export async function prepareHome(home: string, credentials: Credentials): Promise<void> {
  await mkdir(join(home, ".claude"), { recursive: true });
  if (credentials.kind === "oauth-file")
    await copyFile(credentials.file, join(home, ".claude", ".credentials.json"));
}
