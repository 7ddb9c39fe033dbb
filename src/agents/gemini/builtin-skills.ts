/** Gemini CLI's own skills, shipped in its bundle's builtin/ folder: never the skill under test, nor a leak. */
export const geminiBuiltinSkills: readonly string[] = ["skill-creator", "antigravity-support"];
