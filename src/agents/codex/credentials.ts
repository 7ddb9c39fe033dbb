import { homedir } from "node:os";
import { join } from "node:path";
import { SkillgymError } from "../../errors.js";
import { exists } from "../../fs-probe.js";
import type { Secret } from "../../redact.js";
import { childSecrets } from "../login-file-secrets.js";

export type CodexCredentials =
  | { kind: "env"; variable: string }
  | { kind: "auth-file"; file: string }
  | { kind: "simulator" };

const ENV_KEYS = ["OPENAI_API_KEY", "CODEX_API_KEY"];

/** The user's own Codex home: where `codex login` stored its auth.json. */
export function userCodexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME || join(env.HOME ?? homedir(), ".codex");
}

/** Finds how Codex will authenticate, before any run starts (a missing login fails fast with exit 3). */
export async function findCodexCredentials(env: NodeJS.ProcessEnv = process.env): Promise<CodexCredentials> {
  for (const variable of ENV_KEYS) if (env[variable]) return { kind: "env", variable };
  const file = join(userCodexHome(env), "auth.json");
  if (await exists(file)) return { kind: "auth-file", file };
  throw new SkillgymError("NO_CREDENTIALS", "no credentials for Codex CLI were found", {
    hint: "set OPENAI_API_KEY, or log in with `codex login` (it writes $CODEX_HOME/auth.json); use --simulate for an offline dry run",
  });
}

/** Says where Codex's login comes from (a variable or a file), or throws as a run would. */
export async function describeCodexLogin(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const found = await findCodexCredentials(env);
  return found.kind === "env" ? found.variable : found.kind === "auth-file" ? found.file : found.kind;
}

const AUTH_FIELDS: Record<string, string> = {
  OPENAI_API_KEY: "CODEX_AUTH_API_KEY",
  access_token: "CODEX_AUTH_ACCESS_TOKEN",
  refresh_token: "CODEX_AUTH_REFRESH_TOKEN",
  id_token: "CODEX_AUTH_ID_TOKEN",
};

/** The secret values a child is given: credential variables of its environment and the tokens of a copied auth.json. */
export function codexCredentialSecrets(
  credentials: CodexCredentials,
  childEnv: NodeJS.ProcessEnv,
): Promise<Secret[]> {
  return childSecrets(childEnv, credentials.kind === "auth-file" ? credentials.file : undefined, AUTH_FIELDS);
}
