// Skills each agent brings itself: listed in every run, never a leak from the user's folders.
const BUILTIN_SKILLS: Record<string, readonly string[]> = {
  "claude-code": [
    "batch",
    "claude-api",
    "code-review",
    "dataviz",
    "debug",
    "deep-research",
    "fewer-permission-prompts",
    "keybindings-help",
    "loop",
    "run",
    "run-skill-generator",
    "security-review",
    "simplify",
    "statusline-setup",
    "update-config",
    "verify",
  ],
  codex: ["imagegen", "openai-docs", "skill-creator", "skill-installer"],
  gemini: ["skill-creator", "antigravity-support"],
};

/** The agent's own skills by its registry name; none for an agent this table does not know. */
export function builtinSkillsOf(agent: string | undefined): readonly string[] {
  return (agent && BUILTIN_SKILLS[agent]) || [];
}
