import { createOpenCodeAgent } from "./agent.js";
import { describeOpenCodeLogin } from "./credentials.js";
import { parseOpenCodeTranscript } from "./parse-stream.js";
import { openCodeBuiltinSkills } from "./skills.js";

/** OpenCode as the agent registry knows it. */
export const openCodeEntry = {
  /** The hosts a sandboxed run may reach without the simulator: the providers OpenCode's keys name, and its model list. */
  apiHosts: [
    "api.anthropic.com",
    "api.openai.com",
    "generativelanguage.googleapis.com",
    "openrouter.ai",
    "opencode.ai",
    "models.dev",
  ],
  create: createOpenCodeAgent,
  parseTranscript: parseOpenCodeTranscript,
  describeLogin: () => describeOpenCodeLogin(),
  builtinSkills: openCodeBuiltinSkills,
};
