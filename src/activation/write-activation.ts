import type { AgentEvent } from "../agents/events.js";
import { builtinSkillsOf } from "../agents/registry.js";
import type { Activation } from "../contracts/activation.js";
import { writeJson } from "../runlog/atomic-write.js";
import { runPaths } from "../runlog/layout.js";
import { scanSkill } from "../skill/index.js";
import { type ActivationInput, activationOf } from "./activation.js";

export interface RunActivation {
  skill: string;
  /** The folder of the skill whose files count (the staged one; the user's skill for a run without it). */
  skillDir: string;
  configuration: string;
  agent: string;
  /** Install name → the skill's own name, for every skill the run staged. */
  staged: Record<string, string>;
  /** Other folders the skill lives in outside the workspace (the user's folder). */
  skillFolders?: readonly string[];
  /** A sandboxed run: the hosts its network filter refused. */
  sandbox?: { refusedHosts: readonly string[] };
}

/** The skill's files, relative to its folder; none when it cannot be read (the run is still recorded). */
export async function bundledFilesOf(skillDir: string): Promise<string[]> {
  try {
    // Stryker disable next-line MethodExpression: equivalent, scanSkill lists the files in this order already
    return (await scanSkill(skillDir)).files.map((f) => f.path).sort();
  } catch {
    return [];
  }
}

/** Writes `<runDir>/activation.json` from the run's events and returns it. */
export async function writeActivation(
  runDir: string,
  events: readonly AgentEvent[],
  run: RunActivation,
  bundledFiles?: readonly string[],
): Promise<Activation> {
  const input: ActivationInput = {
    skill: run.skill,
    configuration: run.configuration,
    agent: run.agent,
    staged: run.staged,
    bundledFiles: bundledFiles ?? (await bundledFilesOf(run.skillDir)),
    skillFolders: run.skillFolders ? [run.skillDir, ...run.skillFolders] : [run.skillDir],
    builtins: builtinSkillsOf(run.agent),
  };
  const found = activationOf(events, input);
  const refused = run.sandbox?.refusedHosts ?? [];
  const activation = refused.length > 0 ? { ...found, sandbox_refused: { hosts: [...refused] } } : found;
  await writeJson(runPaths(runDir).activation, activation);
  return activation;
}
