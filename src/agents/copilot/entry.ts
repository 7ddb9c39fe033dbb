import { createCopilotAgent } from "./agent.js";
import { describeCopilotLogin } from "./credentials.js";
import { parseCopilotTranscript } from "./parse-stream.js";
import { copilotBuiltinSkills } from "./skills.js";

/** GitHub Copilot CLI as the agent registry knows it. */
export const copilotEntry = {
  /** The hosts a sandboxed run may reach without the simulator: Copilot's API and GitHub's login. */
  apiHosts: [
    "api.githubcopilot.com",
    "api.individual.githubcopilot.com",
    "api.business.githubcopilot.com",
    "api.enterprise.githubcopilot.com",
    "api.github.com",
    "github.com",
  ],
  create: createCopilotAgent,
  parseTranscript: parseCopilotTranscript,
  describeLogin: () => describeCopilotLogin(),
  builtinSkills: copilotBuiltinSkills,
};
