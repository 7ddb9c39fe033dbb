import { SkillgymError } from "../../errors.js";

export type GeminiCredentials = { kind: "env"; variable: string } | { kind: "simulator" };

// Gemini CLI reads GEMINI_API_KEY for its "gemini-api-key" auth type; GOOGLE_API_KEY is its fallback.
const ENV_KEYS = ["GEMINI_API_KEY", "GOOGLE_API_KEY"];

/** How Gemini CLI will authenticate, found before any run starts (so a missing key fails fast with exit 3). */
export function findGeminiCredentials(env: NodeJS.ProcessEnv = process.env): GeminiCredentials {
  for (const variable of ENV_KEYS) if (env[variable]) return { kind: "env", variable };
  throw new SkillgymError("NO_CREDENTIALS", "no credentials for Gemini CLI were found", {
    hint: "set GEMINI_API_KEY (an API key from Google AI Studio); use --simulate for an offline dry run",
  });
}

/** Says where Gemini CLI's login comes from, or throws as a run would. */
export async function describeGeminiLogin(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const found = findGeminiCredentials(env);
  return found.kind === "env" ? found.variable : found.kind;
}
