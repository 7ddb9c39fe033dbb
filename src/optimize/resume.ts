import { readFile, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { OptimizeProposal, OptimizeResults } from "../contracts/optimize-results.js";
import { SkillgymError } from "../errors.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { conditionsSetting } from "./conditions.js";
import type { Proposal } from "./improve.js";
import type { OptimizeOptions, PreparedOptimize } from "./plan.js";

/** Options --resume takes from results.json unless the user set them again. */
export const RESUMED_OPTIONS = [
  "maxIterations",
  "holdout",
  "runs",
  "threshold",
  "seed",
  "model",
  "maxCostUsd",
  "patience",
] as const;
export type ResumedOption = (typeof RESUMED_OPTIONS)[number];

export interface Checkpoint {
  dir: string;
  file: string;
  results: OptimizeResults;
}

/** Reads the results.json of an optimization to continue; a finished or unreadable one is refused. */
export async function loadCheckpoint(resumeDir: string): Promise<Checkpoint> {
  const given = resolve(resumeDir);
  const dir = given.endsWith("results.json") ? dirname(given) : given;
  const file = join(dir, "results.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new SkillgymError("BAD_INPUT", `--resume: ${file} does not exist`, {
      file,
      hint: "pass the optimize-<timestamp> folder of the optimization to continue",
    });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SkillgymError("BAD_INPUT", `${file}: not valid JSON (${(error as Error).message})`, { file });
  }
  const parsed = OptimizeResults.safeParse(raw);
  if (!parsed.success) {
    // A failed parse has at least one issue.
    const issue = parsed.error.issues[0]!;
    throw new SkillgymError("BAD_INPUT", `${file}: ${issue.path.join(".") || "(root)"}: ${issue.message}`, {
      file,
      hint: "--resume continues an optimization from the results.json skillgym optimize wrote",
    });
  }
  if (parsed.data.status === "complete")
    throw new SkillgymError(
      "BAD_INPUT",
      `--resume: ${file} is already complete (${parsed.data.exit_reason}); nothing to resume`,
      { file, hint: "start a new optimization without --resume" },
    );
  return { dir, file, results: parsed.data };
}

/** The options of the resumed optimization: each one the user did not set again comes from results.json. */
export function resumedOptions(options: OptimizeOptions, checkpoint: Checkpoint): OptimizeOptions {
  const given = new Set<string>(options.explicit ?? RESUMED_OPTIONS);
  const s = checkpoint.results.settings;
  const stored: { [K in ResumedOption]: OptimizeOptions[K] | undefined } = {
    maxIterations: s.max_iterations,
    holdout: s.holdout,
    runs: s.runs_per_query,
    threshold: s.threshold,
    seed: s.seed,
    patience: s.patience,
    model: s.model,
    maxCostUsd: s.max_cost_usd,
  };
  const merged: OptimizeOptions = { ...options, workspace: dirname(checkpoint.dir) };
  for (const key of RESUMED_OPTIONS) {
    if (given.has(key) && options[key] !== undefined) continue;
    // An option results.json lacks is set to undefined, which reads as not set.
    Object.assign(merged, { [key]: stored[key] });
  }
  return merged;
}

const shown = (v: unknown) => (v === undefined ? "(not set)" : JSON.stringify(v));

/** What differs between the stored optimization and this one in a way that would change its evaluations. */
export function resumeMismatches(
  stored: OptimizeResults,
  now: {
    prepared: PreparedOptimize;
    options: OptimizeOptions;
    simulated: boolean;
    improver: { backend: string; model: string };
  },
): string[] {
  const { prepared, options } = now;
  const problems: string[] = [];
  const differ = (what: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after))
      problems.push(`${what}: ${shown(before)} in results.json, ${shown(after)} now`);
  };
  differ("skill name", stored.skill_name, prepared.skill.name);
  if (stored.original_description !== prepared.skill.description)
    problems.push(
      `the description in ${prepared.skill.skillMdPath} is not the one the optimization started from`,
    );
  const split = {
    train: prepared.split.train.map((i) => prepared.queries[i]!),
    test: prepared.split.test.map((i) => prepared.queries[i]!),
  };
  if (JSON.stringify(split) !== JSON.stringify({ train: stored.split.train, test: stored.split.test }))
    problems.push(
      `the queries of ${prepared.suite.triggersFile} or their train/test split differ from results.json`,
    );
  const s = stored.settings;
  differ("--holdout", s.holdout, options.holdout);
  differ("--seed", s.seed, options.seed);
  differ("--runs", s.runs_per_query, options.runs);
  differ("--threshold", s.threshold, options.threshold);
  differ("--model", s.model, options.model);
  differ("--improver", s.improver_backend, now.improver.backend);
  differ("--improver-model", s.improver_model, now.improver.model);
  differ("--simulate", stored.simulated, now.simulated);
  differ("the conditions", s.conditions, conditionsSetting(prepared.conditions).conditions);
  return problems;
}

/** The improver's proposal an interrupted iteration already paid for, if it left one; else clears its folder. */
export async function earlierProposal(iterationDir: string): Promise<Proposal | undefined> {
  const parsed = OptimizeProposal.safeParse(await readJsonIfPresent(join(iterationDir, "improver.json")));
  if (parsed.success) {
    const { description, error, ...rest } = parsed.data;
    return {
      ...rest,
      ...(description !== undefined ? { description } : {}),
      ...(error !== undefined ? { error } : {}),
    };
  }
  // Runs without the proposal they evaluated cannot be trusted.
  await rm(iterationDir, { recursive: true, force: true });
  return undefined;
}
