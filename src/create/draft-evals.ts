import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { TriggersFile } from "../contracts/evals.js";
import { SkillgymError } from "../errors.js";
import { errorsOf, formatFinding } from "../findings.js";
import { exists } from "../fs-probe.js";
import type { Judge } from "../judge/judge.js";
import { writeJson } from "../runlog/atomic-write.js";
import { loadSkill } from "../skill/index.js";
import { readDraftAnswer } from "./draft-answer.js";
import { drafterSystem, draftPrompt } from "./draft-prompt.js";

export interface DraftEvalsOptions {
  /** The skill folder or its SKILL.md. */
  skill: string;
  judge: Judge;
  /** How many trigger queries, half of them near misses; default 20. */
  triggers?: number;
  /** How many artifact evals; default 3. */
  evals?: number;
  /** Replace existing evals/evals.json and evals/triggers.json. */
  force?: boolean;
  signal?: AbortSignal;
}

export interface DraftedSuite {
  evalsFile: string;
  triggersFile: string;
  triggers: TriggersFile;
  evalIds: string[];
  /** 1, or 2 when the first answer was refused and the judge was asked again. */
  attempts: number;
  costUsd: number;
  simulated: boolean;
}

/** Asks the judge for a skill's trigger queries and evals; retries once on a refused answer; writes nothing then. */
export async function draftEvals(options: DraftEvalsOptions): Promise<DraftedSuite> {
  const loaded = await loadSkill(options.skill);
  const errors = errorsOf(loaded.findings);
  if (!loaded.skill || errors.length > 0) {
    throw new SkillgymError(
      "INVALID_SKILL",
      `cannot draft evals for an invalid skill:\n${errors.map(formatFinding).join("\n")}`,
      {
        hint: `run skillgym validate ${options.skill}`,
      },
    );
  }
  const skill = loaded.skill;
  const evalsDir = join(skill.dir, "evals");
  const evalsFile = join(evalsDir, "evals.json");
  const triggersFile = join(evalsDir, "triggers.json");
  if (!options.force) {
    for (const file of [evalsFile, triggersFile]) {
      if (await exists(file)) {
        throw new SkillgymError("BAD_INPUT", `${file} already exists; draft-evals never overwrites it`, {
          hint: "pass --force to replace it, or move it away",
          file,
        });
      }
    }
  }
  const counts = { name: skill.name, triggers: options.triggers ?? 20, evals: options.evals ?? 3 };
  const skillMd = await readFile(skill.skillMdPath, "utf8");
  let costUsd = 0;
  let retryReason: string | undefined;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const response = await options.judge.complete({
      system: drafterSystem,
      prompt: draftPrompt({
        name: skill.name,
        description: skill.description,
        skillMd,
        triggers: counts.triggers,
        evals: counts.evals,
        // Stryker disable next-line ConditionalExpression: equivalent, the prompt reads an undefined retryReason as none
        ...(retryReason !== undefined ? { retryReason } : {}),
      }),
      maxTokens: 8000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    costUsd += response.costUsd;
    const reading = readDraftAnswer(response.text, counts);
    if (!reading.ok) {
      retryReason = reading.reason;
      continue;
    }
    await mkdir(evalsDir, { recursive: true });
    await writeJson(evalsFile, { skill_name: skill.name, evals: reading.draft.evals });
    await writeJson(triggersFile, reading.draft.triggers);
    return {
      evalsFile,
      triggersFile,
      triggers: reading.draft.triggers,
      evalIds: reading.draft.parsed.evals.map((e) => String(e.id)),
      attempts: attempt,
      costUsd,
      simulated: options.judge.simulated,
    };
  }
  throw new SkillgymError(
    "AGENT_UNAVAILABLE",
    // Stryker disable next-line StringLiteral: equivalent, the second refusal always leaves its reason
    `the judge's draft was refused twice (${retryReason ?? "no reason"}); nothing was written`,
    { hint: "run draft-evals again, or choose another --judge / --judge-model" },
  );
}
