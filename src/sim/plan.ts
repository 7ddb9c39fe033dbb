import { isAbsolute, resolve } from "node:path";
import type { SimRule, SimScript, SimStep } from "../contracts/sim-script.js";
import type { Conversation, ListedSkill } from "./conversation.js";
import { type ChoiceOptions, chooseSkill, defaultChoice } from "./skill-choice.js";

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** What one session (one agent run) will do, fixed when its first request arrives. */
export interface SessionDecision {
  ruleIndex: number;
  rule: SimRule;
  skill: string | undefined;
  loadSkill: boolean;
  fault: "none" | "hang" | 429 | 500 | 529;
}

export function choiceOptions(script: SimScript): ChoiceOptions {
  const choice = script.skill_choice ?? {};
  return {
    cutoff: choice.cutoff ?? defaultChoice.cutoff,
    minShared: choice.min_shared ?? defaultChoice.minShared,
    ignore: choice.ignore ?? defaultChoice.ignore,
  };
}

/** What a rule can be matched against: what the request shows, and the run's working directory. */
export interface RuleView {
  prompt: string;
  model: string;
  /** The names of the skills the request lists. */
  skills: readonly string[];
  /** The entries at the top of the working directory; asked for only by a rule with `files`. */
  files: () => readonly string[];
  /** The texts of the turns before the prompt (a prior conversation); none in a fresh one. */
  history?: readonly string[];
  /** The request was sent by skillgym's replay, not by the agent. */
  replayed?: boolean;
}

const fits = (pattern: string | undefined, text: string) =>
  pattern === undefined || new RegExp(pattern, "i").test(text);

const someFits = (pattern: string | undefined, names: () => readonly string[]) => {
  if (pattern === undefined) return true;
  const re = new RegExp(pattern, "i");
  return names().some((name) => re.test(name));
};

/**
 * The first rule whose `match` fits the prompt, whose `model` fits the model asked for, whose `skills` fits one of the
 * listed skills' names, whose `files` fits one of the working directory's entries, and whose `history` fits one of
 * the earlier turns' texts.
 */
export function matchRule(script: SimScript, view: RuleView): { rule: SimRule; index: number } {
  const index = script.rules.findIndex(
    (rule) =>
      fits(rule.match, view.prompt) &&
      fits(rule.model, view.model) &&
      someFits(rule.skills, () => view.skills) &&
      someFits(rule.files, view.files) &&
      someFits(rule.history, () => view.history ?? []) &&
      (rule.replayed === undefined || rule.replayed === (view.replayed === true)),
  );
  return index < 0 ? { rule: {}, index: -1 } : { rule: script.rules[index]!, index };
}

export function resolveSkill(
  wanted: string | undefined,
  prompt: string,
  skills: readonly ListedSkill[],
  options: ChoiceOptions,
): string | undefined {
  if (wanted === "none") return undefined;
  if (wanted === undefined || wanted === "auto") return chooseSkill(prompt, skills, options);
  if (wanted.startsWith("~")) return skills.find((s) => s.name.includes(wanted.slice(1)))?.name;
  // A configuration that does not list the skill (a without_skill run) can never load it.
  return skills.find((s) => s.name === wanted || s.name.endsWith(`:${wanted}`))?.name;
}

interface Turn {
  texts: string[];
  tool?: { name: string; input: Record<string, unknown> };
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => vars[key] ?? whole);
}

function toolFor(step: SimStep, cwd: string, vars: Record<string, string>): Turn["tool"] {
  const at = (p: string) => {
    const filled = fill(p, vars);
    return isAbsolute(filled) ? filled : resolve(cwd, filled);
  };
  if ("write" in step)
    return {
      name: "Write",
      input: { file_path: at(step.write.path), content: fill(step.write.content, vars) },
    };
  if ("bash" in step)
    return { name: "Bash", input: { command: fill(step.bash, vars), description: "Scripted step" } };
  if ("read" in step) return { name: "Read", input: { file_path: at(step.read) } };
  if ("skill" in step) return { name: "Skill", input: { skill: fill(step.skill, vars) } };
  return undefined;
}

// A text step joins the next tool call in the same turn, since a text-only turn ends the agent's loop.
export function planTurns(decision: SessionDecision, conversation: Conversation): Turn[] {
  const { rule, skill, loadSkill } = decision;
  const cwd = conversation.cwd ?? process.cwd();
  const vars = { cwd, skill: skill ?? "", prompt: conversation.prompt };
  const steps: SimStep[] = [...(rule.before ?? [])];
  if (loadSkill && skill) steps.push({ skill }, ...(rule.steps ?? []));
  else steps.push(...(rule.without_skill ?? []));

  const turns: Turn[] = [];
  let pending: string[] = [];
  for (const step of steps) {
    if ("text" in step) {
      pending.push(fill(step.text, vars));
      continue;
    }
    turns.push({ texts: pending, tool: toolFor(step, cwd, vars) });
    pending = [];
  }
  if (pending.length === 0) {
    pending.push(
      loadSkill && skill ? `Done (simulated run; used the ${skill} skill).` : "Done (simulated run).",
    );
  }
  turns.push({ texts: pending });
  return turns;
}

// Never empty: every turn but the last calls a tool, and planTurns gives the last a text.
export function contentForTurn(turns: Turn[], index: number, idPrefix: string): ContentBlock[] {
  const turn = turns[Math.min(index, turns.length - 1)]!;
  const blocks: ContentBlock[] = turn.texts.map((text) => ({ type: "text", text }));
  if (turn.tool && index < turns.length) {
    blocks.push({
      type: "tool_use",
      id: `toolu_${idPrefix}_${index}`,
      name: turn.tool.name,
      input: turn.tool.input,
    });
  }
  return blocks;
}
