import { createClaudeCodeAgent } from "./agent.js";
import { claudeBuiltinSkills } from "./builtin-skills.js";
import { describeLogin } from "./credentials.js";
import { parseTranscript } from "./normalise.js";
import { skillLoadedBy } from "./skill-load.js";
import { claudeToolKind } from "./tool-kinds.js";

/** Claude Code as the agent registry knows it. */
export const claudeCodeEntry = {
  /** The hosts a sandboxed run may reach without the simulator: Claude Code's API. */
  apiHosts: ["api.anthropic.com"],
  create: createClaudeCodeAgent,
  parseTranscript,
  describeLogin: () => describeLogin(),
  builtinSkills: claudeBuiltinSkills,
  skillLoadedBy,
  toolKind: claudeToolKind,
};
