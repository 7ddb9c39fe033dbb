export type { Conversation, ListedSkill } from "./conversation.js";
export { describerAnswer } from "./describer-answer.js";
export { SIM_MODEL } from "./encode.js";
export { judgeAnswer, simulatedVerdict } from "./judge-answer.js";
export { loadSimScript } from "./load-script.js";
export { noSimScriptNotice } from "./no-script.js";
export { choiceOptions } from "./plan.js";
export { readConversation } from "./protocols/anthropic-messages.js";
export { type SimLogEntry, type SimOptions, type SimServer, startSim } from "./server.js";
export {
  builtinSkills,
  type ChoiceExplanation,
  chooseSkill,
  defaultChoice,
  explainChoice,
  type SkillVerdict,
  scoreSkill,
} from "./skill-choice.js";
