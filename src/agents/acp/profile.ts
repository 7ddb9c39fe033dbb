import type { Secret } from "../../redact.js";
import type { ToolPolicy } from "../agent.js";

/** What a run's profile is given to prepare a run. */
export interface RunSetup {
  home: string;
  cwd: string;
  tools: ToolPolicy;
  /** The model the run asked for (under the simulator: the simulator's, by default). */
  model: string | undefined;
}

/**
 * What skillgym knows of one ACP agent beyond the protocol: how to start it, give it a home of its own and the
 * simulator, where it finds skills, and which of its skills are its own. The protocol itself is the same for all.
 */
export interface AcpProfile {
  /** The agent's name in messages ("Gemini CLI"). */
  label: string;
  /** Where the skill is staged, relative to the workspace. */
  skillsFolder: string;
  builtinSkills: readonly string[];
  /** The program and arguments of a run (the user's command, with what the profile adds). */
  commandLine(setup: RunSetup): { command: string; args: string[] };
  /** The run's environment: the allowed base, the agent's own settings, the run's home. */
  environment(setup: RunSetup): NodeJS.ProcessEnv;
  /** Writes the run's home (settings) before it starts. */
  prepare(setup: RunSetup): Promise<void>;
  /** Where the agent finds skills for a run, for the init event's list. */
  skillRoots(cwd: string, home: string): Promise<string[]>;
  /** The credentials passed to the child, masked in everything written. */
  secrets: Secret[];
  /** The agent's version, when known without a run. */
  version?: string | undefined;
  /** The session mode to ask for (ACP `session/set_mode`), by policy: one where permissions come to the client. */
  sessionMode?(tools: ToolPolicy): string | undefined;
  warnings?: string[];
  /** The run's model is chosen over the protocol (a session config option or `session/set_model`), not by a flag. */
  modelOverAcp?: boolean;
  /** False: the client's file-system methods are not offered (the agent reads and writes files itself). */
  clientFs?: boolean;
}
