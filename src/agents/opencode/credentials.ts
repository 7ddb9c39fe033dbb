import { homedir } from "node:os";
import { join } from "node:path";
import { SkillgymError } from "../../errors.js";
import { exists } from "../../fs-probe.js";
import type { Secret } from "../../redact.js";
import { childSecrets } from "../login-file-secrets.js";

export type OpenCodeCredentials =
  | { kind: "env"; variables: string[] }
  | { kind: "auth-file"; file: string; variables: string[] }
  | { kind: "simulator" };

/** The API keys of the providers OpenCode reads from its environment (models.dev names them per provider). */
export const PROVIDER_KEYS: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "OPENROUTER_API_KEY",
  "OPENCODE_API_KEY",
  "GROQ_API_KEY",
  "XAI_API_KEY",
  "MISTRAL_API_KEY",
  "DEEPSEEK_API_KEY",
  "AZURE_API_KEY",
  "GITHUB_TOKEN",
];

/** Where `opencode auth login` keeps its logins: `$XDG_DATA_HOME/opencode/auth.json`. */
export function userAuthFile(env: NodeJS.ProcessEnv): string {
  const data = env.XDG_DATA_HOME || join(env.HOME ?? homedir(), ".local", "share");
  return join(data, "opencode", "auth.json");
}

/** How OpenCode will authenticate, found before any run starts (none: exit 3). Keys and the login file both pass. */
export async function findOpenCodeCredentials(
  env: NodeJS.ProcessEnv = process.env,
): Promise<OpenCodeCredentials> {
  const variables = PROVIDER_KEYS.filter((name) => env[name]);
  const file = userAuthFile(env);
  if (await exists(file)) return { kind: "auth-file", file, variables };
  if (variables.length > 0) return { kind: "env", variables };
  throw new SkillgymError("NO_CREDENTIALS", "no credentials for OpenCode were found", {
    hint:
      "set the API key of the provider your --model names (ANTHROPIC_API_KEY, OPENAI_API_KEY, …), or log in with " +
      "`opencode auth login` (it writes ~/.local/share/opencode/auth.json); use --simulate for an offline dry run",
  });
}

/** Says where OpenCode's login comes from, or throws as a run would. */
export async function describeOpenCodeLogin(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const found = await findOpenCodeCredentials(env);
  if (found.kind === "simulator") return found.kind;
  const sources = [...(found.kind === "auth-file" ? [found.file] : []), ...found.variables];
  return sources.join(", ");
}

const AUTH_FIELDS: Record<string, string> = {
  key: "OPENCODE_AUTH_KEY",
  access: "OPENCODE_AUTH_ACCESS_TOKEN",
  refresh: "OPENCODE_AUTH_REFRESH_TOKEN",
};

/** The secret values a run is given: the provider keys passed through and the tokens of a copied auth.json. */
export async function openCodeSecrets(
  credentials: OpenCodeCredentials,
  env: NodeJS.ProcessEnv,
): Promise<Secret[]> {
  if (credentials.kind === "simulator") return [];
  const keys = PROVIDER_KEYS.flatMap((name) => (env[name] ? [{ name, value: env[name] as string }] : []));
  if (credentials.kind !== "auth-file") return keys;
  return [...keys, ...(await childSecrets({}, credentials.file, AUTH_FIELDS))];
}
