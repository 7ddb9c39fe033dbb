import { createGeminiAgent } from "./agent.js";
import { geminiBuiltinSkills } from "./builtin-skills.js";
import { describeGeminiLogin } from "./credentials.js";
import { parseGeminiTranscript } from "./parse-stream.js";

/** Gemini CLI as the agent registry knows it. */
export const geminiEntry = {
  create: createGeminiAgent,
  parseTranscript: parseGeminiTranscript,
  describeLogin: () => describeGeminiLogin(),
  builtinSkills: geminiBuiltinSkills,
};
