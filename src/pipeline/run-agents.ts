import { join, resolve } from "node:path";
import type { Agent } from "../agents/agent.js";
import { type AgentOutcome, buildAgentMatrix, renderMatrixMarkdown } from "../bench/index.js";
import { type AgentMatrix, AgentsIterationRecord } from "../contracts/matrix.js";
import { recordRunHistory } from "../history/index.js";
import { writeStaticReport } from "../report/index.js";
import { createBudget, defaultWorkspace, loadInputs } from "../run/index.js";
import { createNextIteration, readIterationRecord } from "../run/iteration.js";
import { selectEvals } from "../run/plan.js";
import { readJsonIfPresent, writeJson, writeTextAtomically } from "../runlog/atomic-write.js";
import {
  agentIterationDir,
  BENCHMARK_MARKDOWN_FILE,
  ITERATION_FILE,
  iterationDirName,
  MATRIX_FILE,
} from "../runlog/layout.js";
import { iterationNumbers } from "../runlog/list-runs.js";
import { hashSkill, type Skill } from "../skill/index.js";
import type { Suite } from "../suite/index.js";
import { unitCostsFromHistory } from "./cost-history.js";
import { evaluateGates, type GateResult } from "./gates.js";
import { lanesOf, recordedAgentName } from "./lanes.js";
import type { PipelineOptions } from "./options.js";
import { type PipelineResult, runPipeline } from "./run-pipeline.js";
import { stageSuite } from "./stage.js";

export interface AgentsPipelineOptions
  extends Omit<PipelineOptions, "createAgent" | "into" | "budget" | "inputs"> {
  /** The agent names, in the order they run. */
  agents: readonly string[];
  /** `--model a,b`: every agent runs each model in turn (one sub-folder each); absent or one: as `model`. */
  models?: readonly string[];
  createAgent: (agent: string, inputs: { skill: Skill; suite: Suite; wantsJudge: boolean }) => Promise<Agent>;
  /** Told before each part starts, with the part's folder name (the agent's, the model's, or both). */
  onAgent?: (part: string, index: number, count: number) => void;
}

export interface AgentPart {
  agent: string;
  /** The model this part asked for, when `--model` named one. */
  model?: string;
  /** The part's folder name: the agent's, the model's, or `<agent>-<model>`. */
  name: string;
  /** `iteration-<N>/<name>`, an ordinary iteration folder. */
  dir: string;
  /** Absent when the run stopped before this agent started. */
  result?: PipelineResult;
}

export interface AgentsPipelineResult {
  iterationDir: string;
  iteration: number;
  resumed: boolean;
  parts: AgentPart[];
  matrix: AgentMatrix;
  matrixFile: string;
  markdownFile: string;
  reportFile: string;
  gates: GateResult[];
  costUsd: number;
  budgetExhausted: boolean;
  cancelled: boolean;
  simulated: boolean;
}

type Request = AgentsIterationRecord["request"];

async function readAgentsRecord(dir: string): Promise<AgentsIterationRecord | undefined> {
  const parsed = AgentsIterationRecord.safeParse(await readJsonIfPresent(join(dir, ITERATION_FILE)));
  return parsed.success ? parsed.data : undefined;
}

// The latest iteration is continued when it ran the same agents and was interrupted with the same skill and request
// (or with --resume); else a new one.
async function chooseAgentsIteration(
  workspace: string,
  wanted: { skillHash: string; agents: readonly string[]; request: Request },
  resume: boolean,
): Promise<{ dir: string; number: number; resumed: boolean; earlier?: AgentsIterationRecord }> {
  const latest = (await iterationNumbers(workspace)).at(-1);
  if (latest !== undefined) {
    const dir = join(workspace, iterationDirName(latest));
    const earlier = await readAgentsRecord(dir);
    const sameAgents = earlier?.agents.join(",") === wanted.agents.join(",");
    const sameRequest = JSON.stringify(earlier?.request) === JSON.stringify(wanted.request);
    if (
      earlier &&
      sameAgents &&
      (resume || (earlier.status !== "complete" && earlier.skill_hash === wanted.skillHash && sameRequest))
    )
      return { dir, number: latest, resumed: true, earlier };
  }
  return { ...(await createNextIteration(workspace)), resumed: false };
}

async function partStatus(part: AgentPart): Promise<AgentOutcome["status"]> {
  const r = part.result;
  if (!r) return "not_run";
  if (r.cancelled || r.budgetExhausted || r.evals?.cancelled || r.triggers?.cancelled) return "interrupted";
  const record = await readIterationRecord(part.dir);
  // Stryker disable next-line ConditionalExpression: equivalent, the pipeline leaves a part's record unfinished only when its result says cancelled or over budget (above)
  return record && record.status !== "complete" ? "interrupted" : "complete";
}

function agentGates(options: AgentsPipelineOptions, part: AgentPart): GateResult[] {
  const r = part.result;
  const triggers = r?.triggers && !r.triggers.cancelled ? r.triggers.results : undefined;
  return evaluateGates(options.gates, r?.benchmark, triggers).map((gate) => ({
    ...gate,
    agent: part.name,
    message: `${part.name}: ${gate.message}`,
  }));
}

/**
 * `run --agent a,b,…`: the whole pipeline once per agent, each into `iteration-<N>/<agent>/`, one after another
 * under one spending limit, then the matrix (matrix.json, benchmark.md and a report at the iteration root) and
 * the gates for every agent.
 */
export async function runAgentsPipeline(options: AgentsPipelineOptions): Promise<AgentsPipelineResult> {
  const loaded = await loadInputs({
    skillPath: options.skillPath,
    ...(options.evalsPath ? { evalsPath: options.evalsPath } : {}),
    ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
    need: options.stage ?? "any",
  });
  const inputs = { ...loaded, suite: stageSuite(loaded.suite, options.stage) };
  const { skill, suite } = inputs;
  const models = options.models ?? (options.model ? [options.model] : []);
  const lanes = lanesOf(options.agents, models);
  const workspace = resolve(options.workspace ?? defaultWorkspace(skill.dir, skill.name));
  const skillHash = await hashSkill(skill.dir);
  const request: Request = {
    evals: suite.evalsFile ? selectEvals(suite.evals, options.only).map((e) => e.id) : [],
    runs_per_configuration: options.runs,
    baseline: ["without_skill", "none"].includes(options.baseline)
      ? options.baseline
      : resolve(options.baseline),
    trigger_queries: suite.triggersFile ? suite.triggers.length : 0,
    trigger_runs: options.triggerRuns,
  };
  // Every agent is found and logged in before any runs: a missing one stops the run before it starts.
  const wantsJudge = options.grade && suite.evals.some((e) => e.expectations.length > 0);
  const ready = new Map<string, Agent>();
  for (const agent of options.agents)
    ready.set(agent, await options.createAgent(agent, { skill, suite, wantsJudge }));
  const chosen = await chooseAgentsIteration(
    workspace,
    { skillHash, agents: lanes.map((l) => l.dir), request },
    options.resume === true,
  );
  const record: AgentsIterationRecord = {
    skill_name: skill.name,
    skill_path: skill.dir,
    skill_hash: skillHash,
    status: "running",
    started_at: chosen.earlier?.started_at ?? new Date().toISOString(),
    agents: lanes.map((l) => l.dir),
    ...(models.length > 0
      ? { lanes: lanes.map((lane) => ({ ...lane, agent: recordedAgentName(lane.agent) })) }
      : {}),
    request,
  };
  await writeJson(join(chosen.dir, ITERATION_FILE), record);
  const budget =
    options.maxCostUsd !== undefined
      ? createBudget(options.maxCostUsd, (await unitCostsFromHistory(workspace)).agentRunUsd)
      : undefined;

  const parts: AgentPart[] = lanes.map((lane) => ({
    agent: lane.agent,
    ...(lane.model ? { model: lane.model } : {}),
    name: lane.dir,
    dir: agentIterationDir(chosen.dir, lane.dir),
  }));
  const stopped = () => options.signal?.aborted === true || budget?.exhausted === true;
  try {
    for (const [index, part] of parts.entries()) {
      if (stopped()) break;
      options.onAgent?.(part.name, index, parts.length);
      const agent = ready.get(part.agent);
      part.result = await runPipeline({
        ...options,
        ...(part.model ? { model: part.model } : {}),
        inputs,
        // Every agent shares the root's resume decision: the folder it is given keeps what an earlier attempt finished.
        into: { dir: part.dir, number: chosen.number },
        ...(budget ? { budget } : {}),
        createAgent: async (i) => agent ?? options.createAgent(part.agent, i),
      });
    }
  } catch (error) {
    await writeJson(join(chosen.dir, ITERATION_FILE), {
      ...record,
      status: "interrupted",
    } satisfies AgentsIterationRecord);
    throw error;
  }

  const outcomes: AgentOutcome[] = [];
  for (const part of parts) {
    const r = part.result;
    outcomes.push({
      // An ACP agent's row is named as its runs and folder are (`acp-<program>`), not by its command line.
      agent: recordedAgentName(part.agent),
      ...(r?.agent?.version ? { version: r.agent.version } : {}),
      ...(part.model ? { model: part.model } : {}),
      dir: part.name,
      status: await partStatus(part),
      ...(r?.benchmark ? { benchmark: r.benchmark } : {}),
      ...(r?.triggers && !r.triggers.cancelled ? { triggers: r.triggers.results.summary } : {}),
      costUsd: r?.costUsd ?? 0,
      wallSeconds: r?.wallSeconds ?? 0,
    });
  }
  const simulated = parts.some((p) => p.result?.simulated === true);
  const matrix = buildAgentMatrix({
    skillName: skill.name,
    simulated,
    timestamp: new Date().toISOString(),
    outcomes,
  });
  const matrixFile = join(chosen.dir, MATRIX_FILE);
  const markdownFile = join(chosen.dir, BENCHMARK_MARKDOWN_FILE);
  await writeJson(matrixFile, matrix);
  await writeTextAtomically(markdownFile, renderMatrixMarkdown(matrix));
  const complete = outcomes.every((o) => o.status === "complete");
  await writeJson(join(chosen.dir, ITERATION_FILE), {
    ...record,
    status: complete ? "complete" : "interrupted",
    finished_at: new Date().toISOString(),
    simulated,
  } satisfies AgentsIterationRecord);
  // A shard holds only part of the plan: it gets no row (nor does `merge` yet write one).
  if (!options.shard)
    await recordRunHistory(
      workspace,
      parts.map((part) => part.dir),
      // Stryker disable next-line ConditionalExpression: equivalent, the history reads an undefined floor as the default one
      options.effectFloor !== undefined ? { effectFloor: options.effectFloor } : {},
    );
  const reportFile = await writeStaticReport(chosen.dir, skill.name);
  return {
    iterationDir: chosen.dir,
    iteration: chosen.number,
    resumed: chosen.resumed,
    parts,
    matrix,
    matrixFile,
    markdownFile,
    reportFile,
    gates: parts.flatMap((part) => agentGates(options, part)),
    costUsd: outcomes.reduce((sum, o) => sum + o.costUsd, 0),
    budgetExhausted: budget?.exhausted === true,
    cancelled: options.signal?.aborted === true,
    simulated,
  };
}
