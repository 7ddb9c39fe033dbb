import { geminiSkillLoad } from "../../agents/gemini/skill-load.js";
import type { ReplayAdapter } from "./adapter.js";
import { readGeminiTurn } from "./gemini-turn.js";

// Both ways Gemini CLI asks for a model turn, after any base path and API version; countTokens and the rest differ.
const GENERATE = /\/models\/[^/:?]+:(streamGenerateContent|generateContent)(\?|$)/;

// A model turn of the agent declares its tools; its side requests (the next-speaker check, loop detection, a
// summary) ask for JSON or text without them, though they may carry the conversation and so the marker.
function declaresTools(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { tools?: { functionDeclarations?: unknown[] }[] };
    return (
      Array.isArray(parsed.tools) &&
      parsed.tools.some((t) => Array.isArray(t?.functionDeclarations) && t.functionDeclarations.length > 0)
    );
  } catch {
    return false;
  }
}

/**
 * Gemini CLI 0.61 (`-p`) runs a query starting with `/` (but `//`, `/*`) as a slash command, and replaces an unescaped
 * `@<path>` by the file's (or an agent's, a resource's) content before it asks the model: such a query is not sent as
 * written. Any `@` followed by a path character counts, found or not: the agent alone knows what it resolves to.
 */
export function rewrittenByGemini(query: string): boolean {
  const start = query.trimStart();
  const slash = start.startsWith("/") && !start.startsWith("//") && !start.startsWith("/*");
  return slash || /(?<!\\)@[^\s@]/.test(query);
}

/** Gemini CLI on the Gemini API (API-key auth): skills by its activate_skill tool or a read_file of SKILL.md. */
export const geminiReplay: ReplayAdapter = {
  agent: "gemini",
  apiKeyVariables: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  isFirstRequest: (request, marker) =>
    request.method === "POST" &&
    GENERATE.test(request.path) &&
    request.body.includes(marker) &&
    declaresTools(request.body),
  droppedHeaders: [
    "x-goog-api-key",
    "authorization",
    "host",
    "connection",
    "content-length",
    "transfer-encoding",
    "accept-encoding",
  ],
  // Gemini CLI sends no session header (its session lives in the body's context block): the key is all a replay adds.
  replayHeaders: (apiKey) => ({ "x-goog-api-key": apiKey }),
  readTurn: readGeminiTurn,
  sendsAsIs: (query) => !rewrittenByGemini(query),
  skillOf: (call) => geminiSkillLoad(call)?.skill,
};
