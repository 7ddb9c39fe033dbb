import { join } from "node:path";
import { AgentMatrix, AgentsIterationRecord } from "../contracts/matrix.js";
import { agentIterationDir, ITERATION_FILE, MATRIX_FILE } from "../runlog/layout.js";
import { readIterationData, type ViewReader } from "./iteration-data.js";
import type { IterationRef } from "./target.js";
import type { IterationDetail } from "./view-model.js";

/** The agents of an iteration that ran several (`run --agent a,b`), and their matrix; undefined for one agent. */
export async function agentsOfIteration(
  reader: ViewReader,
  iteration: IterationRef,
): Promise<{ agents: string[]; matrix: AgentMatrix | null } | undefined> {
  const record = await reader.cache.value(join(iteration.dir, ITERATION_FILE), AgentsIterationRecord);
  if (!record) return undefined;
  const matrix = await reader.cache.value(join(iteration.dir, MATRIX_FILE), AgentMatrix);
  return { agents: record.agents, matrix: matrix ?? null };
}

export interface PickedIteration {
  /** The folder whose runs are shown: the iteration, or one agent's folder inside it. */
  ref: IterationRef;
  agents?: string[];
  agent?: string;
  matrix?: AgentMatrix | null;
}

/**
 * The folder a request names: the iteration itself, or in an iteration of several agents the named agent's folder
 * (the first agent's when none is named). Undefined when the agent is not one of the iteration's.
 */
export async function pickAgent(
  reader: ViewReader,
  iteration: IterationRef,
  agent: string | null | undefined,
): Promise<PickedIteration | undefined> {
  const found = await agentsOfIteration(reader, iteration);
  if (!found) return agent ? undefined : { ref: iteration };
  const chosen = agent ?? found.agents[0];
  if (chosen === undefined || !found.agents.includes(chosen)) return undefined;
  return {
    ref: {
      number: iteration.number,
      name: `${iteration.name}/${chosen}`,
      dir: agentIterationDir(iteration.dir, chosen),
      agent: chosen,
    },
    agents: found.agents,
    agent: chosen,
    matrix: found.matrix,
  };
}

/** What the page shows of an iteration: with several agents, the picked agent's runs plus the matrix. */
export async function readIterationView(
  reader: ViewReader,
  picked: PickedIteration,
): Promise<IterationDetail> {
  const detail = await readIterationData(reader, picked.ref);
  if (!picked.agents || !picked.agent) return detail;
  return { ...detail, agents: picked.agents, agent: picked.agent, matrix: picked.matrix ?? null };
}
