import { SkillgymError } from "../../errors.js";
import type { Secret } from "../../redact.js";

export type CopilotCredentials =
  | { kind: "github-token"; variable: string }
  | { kind: "provider"; variables: string[] }
  | { kind: "simulator" };

/** Copilot CLI's own order of precedence for a GitHub token. */
export const COPILOT_TOKEN_VARIABLES: readonly string[] = [
  "COPILOT_GITHUB_TOKEN",
  "GH_TOKEN",
  "GITHUB_TOKEN",
];
// A model provider of the user's own (BYOK): the base URL selects it, a key or token authenticates.
const PROVIDER_SECRETS = ["COPILOT_PROVIDER_API_KEY", "COPILOT_PROVIDER_BEARER_TOKEN"];

/** Every variable whose value a run must never show. */
export const COPILOT_SECRET_VARIABLES: readonly string[] = [...COPILOT_TOKEN_VARIABLES, ...PROVIDER_SECRETS];

/**
 * How Copilot CLI will authenticate, found before any run starts (none: exit 3): a GitHub token from the environment,
 * or the user's own model provider. A `copilot login` lives in the system keychain, which a run's own home cannot
 * be handed.
 */
export function findCopilotCredentials(env: NodeJS.ProcessEnv = process.env): CopilotCredentials {
  if (env.COPILOT_PROVIDER_BASE_URL)
    return {
      kind: "provider",
      variables: ["COPILOT_PROVIDER_BASE_URL", ...PROVIDER_SECRETS.filter((v) => env[v])],
    };
  for (const variable of COPILOT_TOKEN_VARIABLES)
    if (env[variable]) return { kind: "github-token", variable };
  throw new SkillgymError("NO_CREDENTIALS", "no credentials for GitHub Copilot CLI were found", {
    hint:
      "set COPILOT_GITHUB_TOKEN (a GitHub token allowed to make Copilot requests), or COPILOT_PROVIDER_BASE_URL for a " +
      "model provider of your own; a `copilot login` kept in the system keychain cannot be passed to a run's own " +
      "home. Use --simulate for an offline dry run",
  });
}

/** Says where Copilot CLI's login comes from, or throws as a run would. */
export async function describeCopilotLogin(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const found = findCopilotCredentials(env);
  if (found.kind === "github-token") return found.variable;
  return found.kind === "provider" ? found.variables.join(", ") : found.kind;
}

/** The secret values a child is given. */
export function copilotSecrets(env: NodeJS.ProcessEnv): Secret[] {
  return COPILOT_SECRET_VARIABLES.flatMap((name) =>
    env[name] ? [{ name, value: env[name] as string }] : [],
  );
}
