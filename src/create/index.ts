export { type Draft, type DraftReading, readDraftAnswer } from "./draft-answer.js";
export { type DraftEvalsOptions, type DraftedSuite, draftEvals } from "./draft-evals.js";
export { type DraftPromptInput, drafterSystem, draftPrompt } from "./draft-prompt.js";
export { type Scaffolded, type ScaffoldOptions, scaffoldSkill } from "./scaffold.js";
