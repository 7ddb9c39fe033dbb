import { createGeminiAgent } from "./agent.js";
import { geminiBuiltinSkills } from "./builtin-skills.js";
import { describeGeminiLogin } from "./credentials.js";
import { parseGeminiTranscript } from "./parse-stream.js";

/** Gemini CLI as the agent registry knows it. */
export const geminiEntry = {
  /** The hosts a sandboxed run may reach without the simulator: Gemini's API (and the refresh of a Google login). */
  apiHosts: ["generativelanguage.googleapis.com", "oauth2.googleapis.com"],
  create: createGeminiAgent,
  parseTranscript: parseGeminiTranscript,
  describeLogin: () => describeGeminiLogin(),
  builtinSkills: geminiBuiltinSkills,
};
