import { createCodexAgent } from "./agent.js";
import { describeCodexLogin } from "./credentials.js";
import { parseCodexTranscript } from "./parse-stream.js";
import { systemSkills } from "./skill-load.js";

/** Codex CLI as the agent registry knows it. */
export const codexEntry = {
  create: createCodexAgent,
  parseTranscript: parseCodexTranscript,
  describeLogin: () => describeCodexLogin(),
  builtinSkills: systemSkills,
};
