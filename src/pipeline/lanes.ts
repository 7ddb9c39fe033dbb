import { isAcpCommand } from "../agents/acp/command.js";
import { acpAgentName } from "../agents/acp/entry.js";
import { SkillgymError } from "../errors.js";

/** One part of a run of several agents or models: which agent, which model, and its folder in the iteration. */
export interface Lane {
  agent: string;
  /** Absent when the agent runs its own default model. */
  model?: string;
  /** The sub-folder of the iteration, which also names the lane in tables and gates. */
  dir: string;
}

// A folder name from a model name: characters a folder name should not hold become "-" (e.g. vendor/model).
function modelFolder(model: string): string {
  return model
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "");
}

/** The name an agent's runs record, and its folder: its own, or `acp-<program>` for one named `acp:<command…>`. */
export function recordedAgentName(agent: string): string {
  return isAcpCommand(agent) ? acpAgentName(agent) : agent;
}

// Two agents named by commands of one program (`acp:npx a`, `acp:npx b`) would write into one folder.
function sharedFolder(earlier: Lane, lane: Lane): SkillgymError {
  if (earlier.agent !== lane.agent)
    return new SkillgymError(
      "USAGE",
      `--agent ${earlier.agent} and ${lane.agent} would share the folder ${lane.dir}`,
      { hint: "run them one at a time, or start one through a program of another name (a wrapper script)" },
    );
  return new SkillgymError(
    "USAGE",
    `--model "${earlier.model}" and "${lane.model}" would share the folder ${lane.dir}`,
    {
      hint: "name each model once; models that differ only in case or punctuation cannot share an iteration",
    },
  );
}

/**
 * Every agent with every model, agents first: one lane each. A lane's folder is the agent's name when one model (or
 * none) is asked for, the model's when one agent runs several, else `<agent>-<model>`.
 */
export function lanesOf(agents: readonly string[], models: readonly string[]): Lane[] {
  const folder = recordedAgentName;
  const lanes =
    models.length <= 1
      ? agents.map((agent) => ({ agent, ...(models[0] ? { model: models[0] } : {}), dir: folder(agent) }))
      : agents.flatMap((agent) =>
          models.map((model) => ({
            agent,
            model,
            dir: agents.length === 1 ? modelFolder(model) : `${folder(agent)}-${modelFolder(model)}`,
          })),
        );
  const seen = new Map<string, Lane>();
  for (const lane of lanes) {
    const earlier = seen.get(lane.dir);
    if (!/^[a-z0-9]/.test(lane.dir))
      throw new SkillgymError("USAGE", `--model "${lane.model}" gives no folder name`, {
        hint: "name models that start with a letter or a digit",
      });
    if (earlier) throw sharedFolder(earlier, lane);
    seen.set(lane.dir, lane);
  }
  return lanes;
}
