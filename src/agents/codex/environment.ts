import { copyFile, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { allowedEnvironment, type EnvAllowList, suiteNames } from "../allowed-env.js";
import type { CodexCredentials } from "./credentials.js";

/** The variable the simulator's provider reads its (dummy) key from: never a real credential's name. */
export const SIM_KEY_VARIABLE = "SKILLGYM_SIM_KEY";

export interface CodexEnvOptions {
  base: NodeJS.ProcessEnv;
  home: string;
  credentials: CodexCredentials;
  simulatorUrl?: string;
  /** Names of the parent's variables the suite passes on (evals.json `env`). */
  passEnv?: readonly string[];
}

/** What of the parent's environment a real (not simulated) Codex run may see besides the base. */
export const CODEX_VARIABLES: EnvAllowList = { prefixes: ["OPENAI_", "CODEX_"] };

// Variables that would point the child at the user's own config or at another endpoint.
const DROPPED = ["CODEX_HOME", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED", "CODEX_THREAD_ID"];
const SIMULATOR_DROPPED = ["OPENAI_API_KEY", "CODEX_API_KEY", "CODEX_ACCESS_TOKEN", "OPENAI_BASE_URL"];

/** Codex's own home inside a run's home: config, auth.json, skills and sessions of this run alone. */
export function codexHomeOf(home: string): string {
  return join(home, ".codex");
}

/** A fresh HOME and CODEX_HOME per run keep the user's skills, config and profile out; only allowed variables pass. */
export function codexEnvironment(options: CodexEnvOptions): NodeJS.ProcessEnv {
  const own = options.simulatorUrl ? [] : [CODEX_VARIABLES];
  const env = allowedEnvironment(options.base, suiteNames(options.passEnv), ...own);
  for (const key of DROPPED) delete env[key];
  env.HOME = options.home;
  env.USERPROFILE = options.home;
  env.CODEX_HOME = codexHomeOf(options.home);
  env.TMPDIR = tmpOf(options.home);
  // `codex exec` reads its key from CODEX_API_KEY alone (0.169 sends no key given only OPENAI_API_KEY).
  if (!options.simulatorUrl && options.credentials.kind === "env" && !env.CODEX_API_KEY && env.OPENAI_API_KEY)
    env.CODEX_API_KEY = env.OPENAI_API_KEY;
  if (options.simulatorUrl) {
    for (const key of SIMULATOR_DROPPED) delete env[key];
    env[SIM_KEY_VARIABLE] = "sk-skillgym-simulator";
  }
  return env;
}

/** The run's own temporary folder: the sandbox lets commands write there, and it goes with the run's home. */
export function tmpOf(home: string): string {
  return join(home, "tmp");
}

export async function prepareCodexHome(home: string, credentials: CodexCredentials): Promise<void> {
  await mkdir(codexHomeOf(home), { recursive: true });
  await mkdir(tmpOf(home), { recursive: true });
  if (credentials.kind === "auth-file")
    await copyFile(credentials.file, join(codexHomeOf(home), "auth.json"));
}

async function skillDirs(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && !e.name.startsWith(".")).map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * The skills a run can see besides Codex's built-in `.system` ones, from the roots Codex reads: the workspace's
 * `.agents/skills` and `.codex/skills`, and the run's own CODEX_HOME and HOME (empty unless something staged there).
 */
export async function visibleSkills(cwd: string, home: string): Promise<string[]> {
  const roots = [
    join(cwd, ".agents", "skills"),
    join(cwd, ".codex", "skills"),
    join(codexHomeOf(home), "skills"),
    join(home, ".agents", "skills"),
  ];
  const names: string[] = [];
  for (const root of roots) names.push(...(await skillDirs(root)));
  return [...new Set(names)];
}
