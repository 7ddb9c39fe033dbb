import { basename } from "node:path";
import { createRedactor } from "../../redact.js";
import type { Agent, AgentRunRequest, AgentRunResult } from "../agent.js";
import { listSkills } from "../skill-folders.js";
import { classifyAcpEnd } from "./classify.js";
import type { AcpProfile, RunSetup } from "./profile.js";
import { runAcpSession } from "./session.js";

export interface AcpAgentOptions {
  /** The name runs record ("acp", "qwen-code"). */
  name: string;
  profile: AcpProfile;
  simulated: boolean;
  /** The model a simulated run asks for when the run names none. */
  simModel?: string;
}

// The agent's own program: a JavaScript entry is run by a Node (skillgym's, or the `node` on PATH), which is not the
// agent.
function programOf(line: { command: string; args: string[] }): string {
  const node = line.command === process.execPath || /^node(\.exe)?$/i.test(basename(line.command));
  return node && line.args[0] ? line.args[0] : line.command;
}

// The setup the agent's program is read from, before any run: no profile's program depends on the run's folders.
const NO_RUN: RunSetup = {
  // Stryker disable next-line StringLiteral: equivalent, no profile's command line depends on the run's home
  home: "",
  // Stryker disable next-line StringLiteral: equivalent, no profile's command line depends on the run's folder
  cwd: "",
  tools: "eval",
  model: undefined,
};

/** How runs are approved, as the run records say it. */
export function acpMode(profile: AcpProfile): string {
  return `ACP client: ${profile.label}; permissions allowed inside the workspace, refused outside it and for the web`;
}

/** An agent driven over the Agent Client Protocol, skillgym being the client; what differs per agent is its profile. */
export function createAcpAgent(options: AcpAgentOptions): Agent {
  const { profile } = options;
  const redactor = createRedactor(profile.secrets);
  const mode = acpMode(profile);

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    const tools = request.tools ?? "eval";
    const model = request.model ?? (options.simulated ? options.simModel : undefined);
    const setup = { home: request.home, cwd: request.cwd, tools, model };
    await profile.prepare(setup);
    const skills = [
      ...(await listSkills(await profile.skillRoots(request.cwd, request.home))),
      ...profile.builtinSkills,
    ];
    return runAcpSession({
      ...profile.commandLine(setup),
      env: profile.environment(setup),
      request,
      redactor,
      skills,
      model,
      mode: tools === "read-only" ? `${mode}; read-only` : mode,
      sessionMode: profile.sessionMode?.(tools),
      ...(profile.clientFs === false ? { clientFs: false } : {}),
      ...(profile.modelOverAcp && request.model ? { chooseModel: request.model } : {}),
      classify: classifyAcpEnd,
    });
  }

  return {
    name: options.name,
    ...(profile.version ? { version: profile.version } : {}),
    mode,
    skillsFolder: profile.skillsFolder,
    binary: programOf(profile.commandLine(NO_RUN)),
    simulated: options.simulated,
    redactor,
    ...(profile.warnings?.length ? { warnings: profile.warnings } : {}),
    run,
  };
}
