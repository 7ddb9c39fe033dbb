export { costAt, costOf, priceOf, type TokenPrice } from "../agents/pricing.js";
export { type AgentJudgeOptions, createAgentJudge } from "./agent-judge.js";
export { type AnthropicJudgeOptions, createAnthropicJudge } from "./anthropic.js";
export { createJudge, DEFAULT_ANTHROPIC_JUDGE_MODEL, type JudgeOptions, judgeBackends } from "./create.js";
export { type GradeOptions, type GradeResponse, type GradeResult, gradeWithJudge } from "./grader.js";
export { coercePassed, extractAnswerObject, type GraderAnswer, parseGraderAnswer } from "./grader-answer.js";
export {
  buildGraderPrompt,
  clipHead,
  clipTail,
  type GraderInput,
  type GraderOutputFile,
  type GraderPromptOptions,
  graderPromptLimits,
} from "./grader-prompt.js";
export {
  type Judge,
  type JudgeBackend,
  JudgeError,
  type JudgeRequest,
  type JudgeResponse,
} from "./judge.js";
export { createOpenAiJudge, type OpenAiJudgeOptions } from "./openai.js";
