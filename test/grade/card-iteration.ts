import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runDir } from "../../src/runlog/layout.js";

// A card skill, its eval suite and an iteration of it written the way `skillgym eval` leaves one, so grading can run
// again on real files without any agent.

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

export const cardSkillMd =
  "---\nname: card\ndescription: Writes a card file. Use when asked for a card.\n---\n\nWrite card.txt.\n";

/** Eval 1 is graded by checks alone; eval 2 by a judge and a check. */
export const cardEvals = [
  {
    id: 1,
    prompt: "Make a card from evals/files/names.txt",
    files: ["evals/files/names.txt"],
    checks: [
      { type: "file_contains", path: "card.txt", pattern: "^Hello", flags: "m" },
      { type: "file_unchanged", path: "evals/files/names.txt" },
      { type: "skill_invoked" },
    ],
  },
  {
    id: 2,
    prompt: "Make a friendly card",
    expectations: ["the card is friendly"],
    checks: [{ type: "file_exists", path: "card.txt" }],
  },
];

/** Writes `<root>/card/` (SKILL.md, evals/evals.json, the fixture) and returns the skill's folder. */
export async function writeCardSkill(
  root: string,
  evals: unknown[] = cardEvals,
  extra: Record<string, unknown> = {},
) {
  const skillDir = join(root, "card");
  await writeFiles(skillDir, {
    "SKILL.md": cardSkillMd,
    "evals/evals.json": json({ skill_name: "card", ...extra, evals }),
    "evals/files/names.txt": "Ada\nGrace\n",
  });
  return skillDir;
}

export interface RunFiles {
  /** timing.json's outcome; `null` writes no timing.json. */
  outcome?: string | null;
  /** The files the agent left, copied to outputs/, by workspace path. */
  outputs?: Record<string, string>;
  created?: string[];
  modified?: string[];
  deleted?: string[];
  /** events.jsonl lines; omitted writes none. */
  events?: unknown[];
  /** The raw transcript.jsonl. */
  transcript?: string;
  grading?: unknown;
}

export async function writeRun(dir: string, run: RunFiles): Promise<void> {
  const files: Record<string, string> = {};
  if (run.outcome !== null)
    files["timing.json"] = json({
      outcome: run.outcome ?? "success",
      executor_duration_seconds: 4,
      attempts: 1,
    });
  for (const [path, content] of Object.entries(run.outputs ?? {})) files[`outputs/${path}`] = content;
  files["outputs/metrics.json"] = json({
    total_tool_calls: 1,
    files_created: run.created ?? Object.keys(run.outputs ?? {}),
    ...(run.modified ? { files_modified: run.modified } : {}),
    ...(run.deleted ? { files_deleted: run.deleted } : {}),
  });
  if (run.events) files["events.jsonl"] = run.events.map((e) => JSON.stringify(e)).join("\n");
  if (run.transcript !== undefined) files["transcript.jsonl"] = run.transcript;
  if (run.grading !== undefined) files["grading.json"] = json(run.grading);
  await mkdir(dir, { recursive: true });
  await writeFiles(dir, files);
}

export const loadedCard = { kind: "skill_load", skill: "card", via: "tool" };

export interface CardIterationOptions {
  record?: Record<string, unknown>;
  configurations?: string[];
  runs?: number;
  evals?: (number | string)[];
}

/** iteration.json for the card skill at `skillDir`. */
export function cardRecord(skillDir: string, options: CardIterationOptions = {}) {
  return {
    skill_name: "card",
    skill_path: skillDir,
    skill_hash: "h",
    status: "complete",
    started_at: "2026-01-01T00:00:00Z",
    plan: {
      evals: options.evals ?? [1, 2],
      configurations: options.configurations ?? ["with_skill", "without_skill"],
      runs_per_configuration: options.runs ?? 1,
    },
    ...options.record,
  };
}

export async function writeIterationRecord(iterationDir: string, record: unknown): Promise<void> {
  await writeFiles(iterationDir, { "iteration.json": json(record) });
}

export const cardRunDir = (iterationDir: string, evalId: number, configuration: string, k = 1) =>
  runDir(iterationDir, evalId, configuration, k);

export async function tempRoot(
  prefix = "skillgym-grade-",
): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}
