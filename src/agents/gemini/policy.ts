import type { ToolPolicy } from "../agent.js";

// Headless Gemini CLI denies activate_skill, shell and write tools and removes them from the model's tool list, so a
// skill could never trigger. A policy file allows what a run needs, narrower than --yolo; read tools stay allowed.
const EVAL_TOOLS = ["activate_skill", "run_shell_command", "write_file", "replace"];
const READ_ONLY_TOOLS = ["activate_skill"];

/** The tools each policy adds to Gemini CLI's headless defaults (which already allow reading and searching). */
export function allowedTools(tools: ToolPolicy): readonly string[] {
  return tools === "read-only" ? READ_ONLY_TOOLS : EVAL_TOOLS;
}

/** A Gemini CLI policy file (TOML) allowing the policy's tools without a prompt. */
export function policyToml(tools: ToolPolicy): string {
  return allowedTools(tools)
    .map((name) => {
      // Without it an allowed shell command that redirects (`echo x > f`) falls back to asking, which fails headless.
      const redirection = name === "run_shell_command" ? "allow_redirection = true\n" : "";
      return `[[rule]]\ntoolName = "${name}"\ndecision = "allow"\npriority = 100\n${redirection}`;
    })
    .join("\n");
}

/** How runs are approved, as the run records say it. */
export function approvalMode(tools: ToolPolicy): string {
  return `headless default + --policy allowing ${allowedTools(tools).join(", ")}`;
}
