import { createCodexAgent } from "./agent.js";
import { describeCodexLogin } from "./credentials.js";
import { parseCodexTranscript } from "./parse-stream.js";
import { systemSkills } from "./skill-load.js";

/** Codex CLI as the agent registry knows it. */
export const codexEntry = {
  /** The hosts a sandboxed run may reach without the simulator: Codex's API: an API key's and a ChatGPT login's. */
  apiHosts: ["api.openai.com", "chatgpt.com", "auth.openai.com"],
  create: createCodexAgent,
  parseTranscript: parseCodexTranscript,
  describeLogin: () => describeCodexLogin(),
  builtinSkills: systemSkills,
};
