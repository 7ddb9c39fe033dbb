import { homedir } from "node:os";
import { join } from "node:path";
import { SkillgymError } from "../../errors.js";
import { exists } from "../../fs-probe.js";
import type { Secret } from "../../redact.js";
import { childSecrets } from "../login-file-secrets.js";

export type Credentials =
  | { kind: "env"; variable: string }
  | { kind: "oauth-file"; file: string }
  | { kind: "keychain" }
  | { kind: "simulator" };

const ENV_KEYS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
];

/** Says where Claude Code's login comes from (a variable or a file), or throws as a run would. */
export async function describeLogin(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const found = await findCredentials(env);
  return found.kind === "env" ? found.variable : found.kind === "oauth-file" ? found.file : found.kind;
}

/** Finds how Claude Code will authenticate, before any run starts (so a missing login fails fast with exit 3). */
export async function findCredentials(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<Credentials> {
  for (const variable of ENV_KEYS) if (env[variable]) return { kind: "env", variable };
  const configDir = env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), ".claude");
  const file = join(configDir, ".credentials.json");
  if (await exists(file)) return { kind: "oauth-file", file };
  // On macOS the login lives in the Keychain, which a per-run HOME does not hide.
  if (platform === "darwin") return { kind: "keychain" };
  throw new SkillgymError("NO_CREDENTIALS", "no credentials for Claude Code were found", {
    hint: "log in with `claude` (or set ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN); use --simulate for an offline dry run",
  });
}

const OAUTH_FIELDS: Record<string, string> = {
  accessToken: "CLAUDE_OAUTH_ACCESS_TOKEN",
  refreshToken: "CLAUDE_OAUTH_REFRESH_TOKEN",
};

/** The secret values a child is given: credential variables of its environment and the tokens of a copied login file. */
export function credentialSecrets(credentials: Credentials, childEnv: NodeJS.ProcessEnv): Promise<Secret[]> {
  return childSecrets(
    childEnv,
    credentials.kind === "oauth-file" ? credentials.file : undefined,
    OAUTH_FIELDS,
  );
}
