import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { readIteration } from "../bench/read-iteration.js";
import { AgentsIterationRecord } from "../contracts/matrix.js";
import { TriggerResults } from "../contracts/trigger-results.js";
import { SkillgymError } from "../errors.js";
import {
  agentIterationDir,
  BENCHMARK_MARKDOWN_FILE,
  ITERATION_FILE,
  TRIGGERS_DIR,
} from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { annotations, type GateVerdict, stepSummary } from "./github.js";
import { type JunitAgentPart, junitXml, junitXmlForAgents } from "./junit.js";

export interface CiReportOptions {
  skillName: string;
  /** Write JUnit XML here (`--junit FILE`). */
  junitFile?: string;
  /** Append a markdown summary here (`$GITHUB_STEP_SUMMARY`). */
  stepSummaryFile?: string;
  /** Return `::error`/`::warning` lines for the failed gates and queries (`GITHUB_ACTIONS=true`). */
  annotate?: boolean;
  gates: readonly GateVerdict[];
}

async function writeOrExplain(file: string, write: () => Promise<void>): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await write();
  } catch (error) {
    throw new SkillgymError("WORKSPACE", `cannot write ${file}: ${(error as Error).message}`, {
      file,
      cause: error,
    });
  }
}

async function agentPart(iterationDir: string, agent: string): Promise<JunitAgentPart> {
  const dir = agentIterationDir(iterationDir, agent);
  const data = await readIteration(dir).catch(() => undefined);
  const triggers = await readRecordIfValid(join(dir, TRIGGERS_DIR, "trigger-results.json"), TriggerResults);
  return { agent, runs: data?.runs ?? [], ...(triggers ? { triggers } : {}) };
}

/** Writes an iteration's JUnit file and CI summary; returns the annotation lines for the caller to print. */
export async function writeCiReports(iterationDir: string, options: CiReportOptions): Promise<string[]> {
  const triggers = await readRecordIfValid(
    join(iterationDir, TRIGGERS_DIR, "trigger-results.json"),
    TriggerResults,
  );
  if (options.junitFile) {
    const agents = await readRecordIfValid(join(iterationDir, ITERATION_FILE), AgentsIterationRecord);
    const xml = agents
      ? junitXmlForAgents(
          options.skillName,
          await Promise.all(agents.agents.map((a) => agentPart(iterationDir, a))),
        )
      : junitXml({
          skillName: options.skillName,
          runs: (await readIteration(iterationDir).catch(() => undefined))?.runs ?? [],
          ...(triggers ? { triggers } : {}),
        });
    const file = options.junitFile;
    await writeOrExplain(file, () => writeFile(file, xml, "utf8"));
  }
  if (options.stepSummaryFile) {
    const benchmarkMarkdown = await readFile(join(iterationDir, BENCHMARK_MARKDOWN_FILE), "utf8").catch(
      () => undefined,
    );
    const markdown = stepSummary({
      skillName: options.skillName,
      iterationDir,
      ...(benchmarkMarkdown ? { benchmarkMarkdown } : {}),
      ...(triggers ? { triggers } : {}),
      gates: options.gates,
    });
    const file = options.stepSummaryFile;
    await writeOrExplain(file, () => appendFile(file, markdown, "utf8"));
  }
  return options.annotate ? annotations(options.gates, triggers) : [];
}
