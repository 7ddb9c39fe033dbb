export { estimateTokens, MAX_BODY_LINES, MAX_BODY_TOKENS } from "./body-rules.js";
export { isExcluded } from "./exclusions.js";
export {
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  saysWhenToUse,
} from "./field-rules.js";
export { scanSkill } from "./files.js";
export { type Frontmatter, type FrontmatterResult, parseFrontmatter } from "./frontmatter.js";
export { hashSkill } from "./hash.js";
export { type LoadedSkill, loadSkill, SKILL_FILE, type Skill } from "./load.js";
export { type PackagedSkill, packageSkill } from "./package.js";
export { CLAUDE_CODE_KEYS, checkSkill, type SkillRuleInput, SPEC_KEYS } from "./rules.js";
