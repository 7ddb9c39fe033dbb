import { SkillgymError } from "../../errors.js";

export type QwenCredentials = { kind: "env"; variable: string } | { kind: "simulator" };

// Qwen Code's OpenAI-compatible auth reads OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL for the endpoint).
const ENV_KEYS = ["OPENAI_API_KEY"];

/** How Qwen Code will authenticate, found before any run starts (none: exit 3). */
export function findQwenCredentials(env: NodeJS.ProcessEnv = process.env): QwenCredentials {
  for (const variable of ENV_KEYS) if (env[variable]) return { kind: "env", variable };
  throw new SkillgymError("NO_CREDENTIALS", "no credentials for Qwen Code were found", {
    hint:
      "set OPENAI_API_KEY, with OPENAI_BASE_URL and OPENAI_MODEL for an OpenAI-compatible endpoint (DashScope, " +
      "OpenRouter, …); use --simulate for an offline dry run",
  });
}

/** Says where Qwen Code's login comes from, or throws as a run would. */
export async function describeQwenLogin(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const found = findQwenCredentials(env);
  return found.kind === "env" ? found.variable : found.kind;
}
