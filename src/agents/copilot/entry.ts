import { createCopilotAgent } from "./agent.js";
import { describeCopilotLogin } from "./credentials.js";
import { parseCopilotTranscript } from "./parse-stream.js";
import { copilotBuiltinSkills } from "./skills.js";

/** GitHub Copilot CLI as the agent registry knows it. */
export const copilotEntry = {
  create: createCopilotAgent,
  parseTranscript: parseCopilotTranscript,
  describeLogin: () => describeCopilotLogin(),
  builtinSkills: copilotBuiltinSkills,
};
