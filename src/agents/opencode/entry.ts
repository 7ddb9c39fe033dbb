import { createOpenCodeAgent } from "./agent.js";
import { describeOpenCodeLogin } from "./credentials.js";
import { parseOpenCodeTranscript } from "./parse-stream.js";
import { openCodeBuiltinSkills } from "./skills.js";

/** OpenCode as the agent registry knows it. */
export const openCodeEntry = {
  create: createOpenCodeAgent,
  parseTranscript: parseOpenCodeTranscript,
  describeLogin: () => describeOpenCodeLogin(),
  builtinSkills: openCodeBuiltinSkills,
};
