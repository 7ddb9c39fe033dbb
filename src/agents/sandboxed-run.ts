import { type SandboxedCommand, sandboxCommand } from "../sandbox/index.js";
import type { AgentRunRequest } from "./agent.js";

/**
 * An agent's command inside the request's sandbox, or undefined when the run asked for none. A read-only run (a judge)
 * sees its working folder, the run it grades, without writing to it.
 */
export function sandboxedRun(
  line: { command: string; args: string[]; env: NodeJS.ProcessEnv },
  request: AgentRunRequest,
): Promise<SandboxedCommand> | undefined {
  if (!request.sandbox) return undefined;
  return sandboxCommand(
    {
      command: line.command,
      args: line.args,
      env: line.env,
      cwd: request.cwd,
      home: request.home,
      ...(request.tools === "read-only" ? { readOnlyCwd: true } : {}),
    },
    request.sandbox,
  );
}
