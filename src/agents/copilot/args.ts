import type { ToolPolicy } from "../agent.js";

// A read-only run sees only these tools; an eval run all of Copilot CLI's, approved without asking.
const READ_ONLY_TOOLS = ["view", "grep", "glob"];

export interface CopilotArgsRequest {
  prompt: string;
  model?: string | undefined;
  tools?: ToolPolicy | undefined;
  usageFile: string;
}

/** The command line of one headless `copilot -p` run. */
export function copilotArgs(request: CopilotArgsRequest): string[] {
  const args = [
    "-p",
    request.prompt,
    "--output-format",
    "json",
    "--allow-all-tools",
    "--no-ask-user",
    "--no-auto-update",
    "--no-color",
    "--usage-output-file",
    request.usageFile,
  ];
  if (request.model) args.push("--model", request.model);
  if (request.tools === "read-only") args.push(`--available-tools=${READ_ONLY_TOOLS.join(",")}`);
  return args;
}

/** How runs are approved, as the run records say it. */
export function approvalMode(tools: ToolPolicy | undefined): string {
  return tools === "read-only"
    ? `--available-tools ${READ_ONLY_TOOLS.join(", ")} (read-only)`
    : "--allow-all-tools (file tools limited to the workspace and the run's TMPDIR)";
}
