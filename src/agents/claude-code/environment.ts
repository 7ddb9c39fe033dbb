import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Credentials } from "./credentials.js";

export interface ChildEnvOptions {
  base: NodeJS.ProcessEnv;
  home: string;
  credentials: Credentials;
  simulatorUrl?: string;
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

/** A fresh home per run keeps the user's skills, settings and hooks out; credentials pass through. */
export function childEnvironment(options: ChildEnvOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...options.base };
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
