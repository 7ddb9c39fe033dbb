/** Claude Code's own skills (2.1.x): listed in every run's skill list, never a leak from the user's folders. */
export const claudeBuiltinSkills: readonly string[] = [
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
];
