import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { allowedEnvironment, type EnvAllowList, suiteNames } from "../allowed-env.js";
import type { QwenCredentials } from "./credentials.js";

/** What of the parent's environment a real (not simulated) Qwen Code run may see besides the base. */
export const QWEN_VARIABLES: EnvAllowList = { prefixes: ["OPENAI_", "QWEN_"] };

// Variables that point the child at the user's own config, memory, trust list or another server.
const DROPPED = [
  "QWEN_HOME",
  "QWEN_DIR",
  "QWEN_RUNTIME_DIR",
  "QWEN_CODE_TRUSTED_FOLDERS_PATH",
  "QWEN_CODE_MCP_APPROVALS_PATH",
  "QWEN_CODE_SYSTEM_SETTINGS_PATH",
  "QWEN_DAEMON_URL",
  "QWEN_SERVER_TOKEN",
];
const SIMULATOR_KEY = "sk-skillgym-simulator";

export interface QwenEnvOptions {
  base: NodeJS.ProcessEnv;
  home: string;
  credentials: QwenCredentials;
  /** Under the simulator: its base URL and the model the run asks for. */
  simulator?: { url: string; model: string } | undefined;
  passEnv?: readonly string[] | undefined;
}

/** A fresh home per run keeps the user's skills, settings and memory out; only allowed variables pass. */
export function qwenEnvironment(options: QwenEnvOptions): NodeJS.ProcessEnv {
  const own = options.simulator ? [] : [QWEN_VARIABLES];
  const env = allowedEnvironment(options.base, suiteNames(options.passEnv), ...own);
  for (const key of DROPPED) delete env[key];
  env.HOME = options.home;
  env.USERPROFILE = options.home;
  env.TMPDIR = join(options.home, "tmp");
  // Its relaunch (a second Node process to raise its memory limit) is start-up time for nothing here.
  env.QWEN_CODE_NO_RELAUNCH = "true";
  if (options.simulator) {
    env.OPENAI_API_KEY = SIMULATOR_KEY;
    env.OPENAI_BASE_URL = `${options.simulator.url.replace(/\/+$/, "")}/agents/v1`;
    env.OPENAI_MODEL = options.simulator.model;
  }
  return env;
}

/**
 * The settings of every run: OpenAI-compatible auth, no folder-trust prompt, no telemetry or update checks, and none
 * of the background model calls that would add requests to a run (memory extraction, skill review, suggestions).
 */
export function qwenSettings(simulated: boolean): object {
  return {
    security: { auth: { selectedType: "openai" }, folderTrust: { enabled: false } },
    general: { enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
    ui: { enableFollowupSuggestions: false },
    // Under the simulator Qwen Code's rate-limit retries are off, so an injected fault reaches skillgym's own retry
    // logic; its model call still asks a 5xx again itself, seven attempts over some 75 s (docs/agents.md).
    ...(simulated ? { model: { generationConfig: { maxRetries: 0 } } } : {}),
  };
}

export async function prepareQwenHome(home: string, simulated: boolean): Promise<void> {
  await mkdir(join(home, ".qwen"), { recursive: true });
  await mkdir(join(home, "tmp"), { recursive: true });
  await writeFile(
    join(home, ".qwen", "settings.json"),
    `${JSON.stringify(qwenSettings(simulated), null, 2)}\n`,
    "utf8",
  );
}
