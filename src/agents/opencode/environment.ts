import { copyFile, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToolPolicy } from "../agent.js";
import { allowedEnvironment, type EnvAllowList, suiteNames } from "../allowed-env.js";
import { type OpenCodeCredentials, PROVIDER_KEYS } from "./credentials.js";

/** The provider the simulator is configured as, and the key it is given (never a real credential). */
export const SIM_PROVIDER = "skillgym-sim";
const SIM_KEY = "sk-skillgym-simulator";

// Variables that would point the child at the user's own config, logins or another server.
const DROPPED = [
  "OPENCODE_CONFIG",
  "OPENCODE_CONFIG_DIR",
  "OPENCODE_CONFIG_CONTENT",
  "OPENCODE_PERMISSION",
  "OPENCODE_AUTH_CONTENT",
  "OPENCODE_DB",
  "OPENCODE_TUI_CONFIG",
  "OPENCODE_DISABLE_PROJECT_CONFIG",
  "OPENCODE_SERVER_PASSWORD",
  "OPENCODE_SERVER_USERNAME",
  "OPENCODE_PID",
  "OPENCODE_TEST_HOME",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  "XDG_STATE_HOME",
];

export interface OpenCodeEnvOptions {
  base: NodeJS.ProcessEnv;
  home: string;
  simulated: boolean;
  /** The run's `provider/model`: a GitHub token passes only to a GitHub provider's model. */
  model?: string | undefined;
  /** Names of the parent's variables the suite passes on (evals.json `env`). */
  passEnv?: readonly string[];
}

// A CI job's GITHUB_TOKEN is the repository's: OpenCode gets it only for a model of GitHub's own providers.
const GITHUB_PROVIDERS = ["github-copilot/", "github-models/"];

/** What of the parent's environment a real (not simulated) OpenCode run may see besides the base. */
export function openCodeVariables(model: string | undefined): EnvAllowList {
  const github = GITHUB_PROVIDERS.some((provider) => model?.startsWith(provider));
  return {
    prefixes: ["OPENCODE_"],
    names: PROVIDER_KEYS.filter((name) => github || name !== "GITHUB_TOKEN"),
  };
}

/** The files of a run's home that skillgym writes. */
export function homeFiles(home: string, platform: NodeJS.Platform = process.platform) {
  return {
    config: join(home, "skillgym-opencode.json"),
    instructions: join(home, "skillgym-system-prompt.md"),
    auth: join(home, ".local", "share", "opencode", "auth.json"),
    ripgrep: join(home, ".cache", "opencode", "bin", platform === "win32" ? "rg.exe" : "rg"),
    tmp: join(home, "tmp"),
  };
}

/** A fresh home per run (every XDG folder inside it) keeps the user's skills, config and logins out. */
export function openCodeEnvironment(options: OpenCodeEnvOptions): NodeJS.ProcessEnv {
  const own = options.simulated ? [] : [openCodeVariables(options.model)];
  const env = allowedEnvironment(options.base, suiteNames(options.passEnv), ...own);
  for (const key of DROPPED) delete env[key];
  const { home } = options;
  env.HOME = home;
  env.USERPROFILE = home;
  env.XDG_CONFIG_HOME = join(home, ".config");
  env.XDG_DATA_HOME = join(home, ".local", "share");
  env.XDG_CACHE_HOME = join(home, ".cache");
  env.XDG_STATE_HOME = join(home, ".local", "state");
  env.TMPDIR = homeFiles(home).tmp;
  env.OPENCODE_CONFIG = homeFiles(home).config;
  env.OPENCODE_DISABLE_AUTOUPDATE = "1";
  env.OPENCODE_DISABLE_LSP_DOWNLOAD = "1";
  env.OPENCODE_DISABLE_TERMINAL_TITLE = "1";
  if (options.simulated) {
    for (const key of PROVIDER_KEYS) delete env[key];
    // The provider catalog comes from models.dev; the simulator's provider is declared in the run's config.
    env.OPENCODE_DISABLE_MODELS_FETCH = "1";
  }
  return env;
}

// OpenCode removes a denied tool from the model's tool list; nothing is left to "ask", which a headless run cannot.
const EVAL_PERMISSIONS = {
  edit: "allow",
  bash: "allow",
  skill: "allow",
  webfetch: "deny",
  websearch: "deny",
  external_directory: "deny",
  doom_loop: "deny",
};
const READ_ONLY_PERMISSIONS = {
  edit: "deny",
  bash: "deny",
  skill: "deny",
  task: "deny",
  todowrite: "deny",
  webfetch: "deny",
  websearch: "deny",
  external_directory: "deny",
  doom_loop: "deny",
};

/** The tools each policy leaves OpenCode, as the run records say it. */
export function permissionMode(tools: ToolPolicy): string {
  return tools === "read-only"
    ? "permission: read, glob and grep only (edit, bash, skill, task, web denied)"
    : "permission: edit, bash and skill allowed; web and folders outside the workspace denied";
}

export interface RunConfigOptions {
  tools: ToolPolicy;
  /** The simulator's base URL and the model name it is asked for. */
  simulator?: { url: string; model: string };
  /** A file whose text OpenCode adds to its system prompt. */
  instructions?: string;
}

/** The run's OpenCode config: permissions, instructions, and under the simulator its provider. */
export function runConfig(options: RunConfigOptions): object {
  const sim = options.simulator;
  return {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    snapshot: false,
    permission: options.tools === "read-only" ? READ_ONLY_PERMISSIONS : EVAL_PERMISSIONS,
    ...(options.instructions ? { instructions: [options.instructions] } : {}),
    ...(sim
      ? {
          provider: {
            [SIM_PROVIDER]: {
              npm: "@ai-sdk/openai-compatible",
              name: "skillgym sim",
              options: { baseURL: `${sim.url.replace(/\/+$/, "")}/agents/v1`, apiKey: SIM_KEY },
              models: { [sim.model]: { name: sim.model } },
            },
          },
          model: `${SIM_PROVIDER}/${sim.model}`,
          small_model: `${SIM_PROVIDER}/${sim.model}`,
        }
      : {}),
  };
}

export interface PrepareHomeOptions extends RunConfigOptions {
  home: string;
  credentials: OpenCodeCredentials;
  systemPrompt?: string | undefined;
  /** A ripgrep to link where OpenCode looks for its own copy (when none is on PATH). */
  ripgrep?: string | undefined;
}

export async function prepareOpenCodeHome(options: PrepareHomeOptions): Promise<void> {
  const files = homeFiles(options.home);
  await mkdir(join(options.home, ".local", "share", "opencode"), { recursive: true });
  await mkdir(join(options.home, ".cache", "opencode", "bin"), { recursive: true });
  await mkdir(files.tmp, { recursive: true });
  if (options.systemPrompt !== undefined) await writeFile(files.instructions, options.systemPrompt, "utf8");
  const config = runConfig({
    tools: options.tools,
    ...(options.simulator ? { simulator: options.simulator } : {}),
    ...(options.systemPrompt !== undefined ? { instructions: files.instructions } : {}),
  });
  await writeFile(files.config, `${JSON.stringify(config, null, 2)}\n`, "utf8");
  if (options.credentials.kind === "auth-file") await copyFile(options.credentials.file, files.auth);
  if (options.ripgrep) await symlink(options.ripgrep, files.ripgrep);
}
