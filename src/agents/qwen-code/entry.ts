import { SIM_MODEL } from "../../contracts/sim-model.js";
import { createAcpAgent } from "../acp/agent.js";
import { parseAcpTranscript } from "../acp/transcript.js";
import type { Agent } from "../agent.js";
import type { AgentFactoryOptions } from "../factory-options.js";
import { describeQwenLogin } from "./credentials.js";
import { QWEN_COMMAND, qwenProfile } from "./profile.js";
import { qwenBuiltinSkills } from "./skills.js";

/** Qwen Code (over ACP) as the agent registry knows it. */
export const qwenCodeEntry = {
  /** The hosts a sandboxed run may reach without the simulator: the OpenAI-compatible endpoints it is used with. */
  apiHosts: ["dashscope.aliyuncs.com", "dashscope-intl.aliyuncs.com", "api.openai.com", "openrouter.ai"],
  create: async (options: AgentFactoryOptions): Promise<Agent> =>
    createAcpAgent({
      name: "qwen-code",
      profile: await qwenProfile(QWEN_COMMAND, options),
      simulated: Boolean(options.simulatorUrl),
      simModel: SIM_MODEL,
    }),
  parseTranscript: (text: string) => parseAcpTranscript(text),
  describeLogin: () => describeQwenLogin(),
  builtinSkills: qwenBuiltinSkills,
};
