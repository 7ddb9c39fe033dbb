import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Agent } from "../agents/agent.js";
import { errorsOf, formatFinding } from "../findings.js";
import { transcriptMarkdown } from "../run/transcript-md.js";
import { hashSkill, loadSkill } from "../skill/index.js";
import { createTempRoot } from "../workspace/temp-root.js";
import { copySkillFiles, skillDiff } from "./skill-files.js";

export interface ImproveInput {
  agent: Agent;
  skillName: string;
  /** The version the edit starts from (the best so far); never written to. */
  sourceDir: string;
  /** Where the edited skill is kept when it is valid: `…/improved/<name>/`. */
  outDir: string;
  /** Where the improver's notes go: `…/iteration-<N>-changes.md`. */
  changesFile: string;
  /** The notes' file name in the improver's folder. */
  changesName: string;
  /** Transcripts of the improver's attempts. */
  transcriptDir: string;
  prompt: string;
  timeoutMs: number;
  model?: string;
  signal?: AbortSignal;
  /** Asked before each attempt; false stops (a spending limit). */
  mayStart?: () => boolean;
  onAttemptCost?: (costUsd: number) => void;
}

export type ImproveResult =
  | { status: "improved"; attempts: number; costUsd: number }
  | { status: "failed"; error: string; attempts: number; costUsd: number }
  | { status: "cancelled"; attempts: number; costUsd: number }
  | { status: "budget"; attempts: number; costUsd: number };

async function problemWith(
  workDir: string,
  input: ImproveInput,
  sourceHash: string,
): Promise<string | undefined> {
  const loaded = await loadSkill(workDir);
  const errors = errorsOf(loaded.findings);
  if (!loaded.skill || errors.length > 0)
    return `the edited skill is not valid: ${errors.map((f) => formatFinding(f)).join("; ") || "no usable SKILL.md"}`;
  if (loaded.skill.name !== input.skillName)
    return `the edit renamed the skill to "${loaded.skill.name}"; its name must stay "${input.skillName}"`;
  if ((await hashSkill(workDir)) === sourceHash) return "the improver changed nothing";
  return undefined;
}

/**
 * The seed's improve phase on a copy: an agent edits the skill in a temporary folder from the evaluation; the edit
 * is kept only when the run succeeded and the skill is still valid and changed, else tried once more, then given
 * up (the caller keeps the version it started from: the rollback).
 */
export async function improveSkill(input: ImproveInput): Promise<ImproveResult> {
  const sourceHash = await hashSkill(input.sourceDir);
  await mkdir(input.transcriptDir, { recursive: true });
  let costUsd = 0;
  // Stryker disable next-line StringLiteral: equivalent, every attempt that does not return sets it
  let error = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    if (input.mayStart && !input.mayStart()) return { status: "budget", attempts: attempt - 1, costUsd };
    const temp = await createTempRoot("improve");
    try {
      const work = join(temp, "work");
      const home = join(temp, "home");
      const skillDir = join(work, input.skillName);
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, its parent is the new temp root and it is not there yet
      await mkdir(home, { recursive: true });
      await copySkillFiles(input.sourceDir, skillDir);
      const result = await input.agent.run({
        prompt: input.prompt,
        cwd: work,
        home,
        timeoutMs: input.timeoutMs,
        transcriptPath: join(input.transcriptDir, `attempt-${attempt}.jsonl`),
        ...(input.model ? { model: input.model } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      const cost = input.agent.simulated ? 0 : (result.result?.costUsd ?? 0);
      costUsd += cost;
      input.onAttemptCost?.(cost);
      await writeFile(
        join(input.transcriptDir, `attempt-${attempt}.md`),
        transcriptMarkdown(input.prompt, result.events, `improve ${input.skillName}, attempt ${attempt}`, {
          simulated: input.agent.simulated,
        }),
        "utf8",
      );
      if (input.signal?.aborted || result.outcome === "cancelled")
        return { status: "cancelled", attempts: attempt, costUsd };
      const problem =
        result.outcome === "success"
          ? await problemWith(skillDir, input, sourceHash)
          : `the improver's run ended with ${result.outcome}${result.message ? `: ${result.message}` : ""}`;
      if (problem === undefined) {
        await copySkillFiles(skillDir, input.outDir);
        const notes = join(work, input.changesName);
        let copied = true;
        await copyFile(notes, input.changesFile).catch(() => {
          copied = false;
        });
        if (!copied) {
          const diff = await skillDiff(input.sourceDir, input.outDir, input.skillName);
          await writeFile(
            input.changesFile,
            `The improver wrote no ${input.changesName}; the edit, as a diff:\n\n\`\`\`diff\n${diff}\`\`\`\n`,
            "utf8",
          );
        }
        return { status: "improved", attempts: attempt, costUsd };
      }
      error = problem;
    } finally {
      // Stryker disable next-line BooleanLiteral: equivalent, the temp root was made above
      await rm(temp, { recursive: true, force: true });
    }
  }
  return { status: "failed", error, attempts: 2, costUsd };
}
