import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { History } from "../contracts/history.js";
import { IterationState, type TuneIteration, targetSkillsOf } from "../contracts/iteration-state.js";
import type { ViewReader } from "./iteration-data.js";
import type { TuneIterationView, TuneRunView, TunesView } from "./view-model.js";

const TUNE_FOLDER = /^tune-.+$/;
/** final-report.md beyond this is cut, so a runaway file cannot swell the page. */
export const maxFinalReportChars = 200_000;

function iterationView(iteration: TuneIteration): TuneIterationView {
  const evaluation = iteration.evaluation;
  return {
    round: iteration.round,
    version: iteration.version,
    status: iteration.status,
    score: evaluation?.score ?? null,
    expectation_pass_rate: evaluation?.expectation_pass_rate ?? null,
    dimensions: evaluation
      ? {
          clarity: evaluation.dimensions.clarity,
          completeness: evaluation.dimensions.completeness,
          correctness: evaluation.dimensions.correctness,
          effectiveness: evaluation.dimensions.effectiveness,
          efficiency: evaluation.dimensions.efficiency,
        }
      : null,
    grading_result: iteration.grading_result ?? null,
  };
}

async function readFinalReport(dir: string): Promise<string | null> {
  const text = await readFile(join(dir, "final-report.md"), "utf8").catch(() => null);
  if (text === null) return null;
  return text.length > maxFinalReportChars ? `${text.slice(0, maxFinalReportChars)}\n… (cut)` : text;
}

async function tuneRun(reader: ViewReader, name: string): Promise<TuneRunView> {
  const dir = join(reader.target.root, name);
  const [state, history, finalReport] = await Promise.all([
    reader.cache.read(join(dir, "iteration-state.json"), IterationState),
    reader.cache.read(join(dir, "history.json"), History),
    readFinalReport(dir),
  ]);
  const problems: string[] = [];
  if (state.state === "broken") problems.push(`${name}/iteration-state.json: ${state.problem}`);
  if (state.state === "missing") problems.push(`${name}/iteration-state.json: missing`);
  if (history.state === "broken") problems.push(`${name}/history.json: ${history.problem}`);
  const ok = state.state === "ok" ? state.value : null;
  return {
    name,
    target_skills: ok ? targetSkillsOf(ok) : [],
    status: ok?.status ?? null,
    termination_reason: ok?.termination_reason ?? null,
    current_best: ok?.current_best ?? (history.state === "ok" ? history.value.current_best : null),
    best_score: ok?.best_score ?? null,
    quality_threshold: ok?.quality_threshold ?? null,
    iterations: ok ? ok.iterations.map(iterationView) : [],
    final_report: finalReport,
    problems,
  };
}

/** The workspace's tune-<timestamp>/ folders, oldest first; only when the view was given a workspace folder. */
export async function readTunesView(reader: ViewReader): Promise<TunesView> {
  const { target } = reader;
  if (target.path !== target.root || target.all.some((it) => it.dir === target.path)) {
    return { workspace: false, tunes: [] };
  }
  const entries = await readdir(target.root, { withFileTypes: true }).catch(() => []);
  const tunes = entries.filter((e) => e.isDirectory() && TUNE_FOLDER.test(e.name)).map((e) => e.name);
  // Stryker disable next-line MethodExpression: equivalent while Node lists a folder's names sorted (libuv's scandir); kept so the order does not rest on that
  const names = tunes.sort();
  return { workspace: true, tunes: await Promise.all(names.map((name) => tuneRun(reader, name))) };
}
