import type { ListedSkill } from "./conversation.js";

// Claude Code's built-in skills appear in every request; the simulator leaves them alone unless a rule names one.
export const builtinSkills = [
  "batch",
  "claude-api",
  "code-review",
  "dataviz",
  "debug",
  "deep-research",
  "fewer-permission-prompts",
  "keybindings-help",
  "loop",
  "run",
  "run-skill-generator",
  "security-review",
  "simplify",
  "statusline-setup",
  "update-config",
  "verify",
];

const STOPWORDS = new Set(
  (
    "the a an and or but if then than this that these those with without for from into onto about above below to of in " +
    "on at by as is are was were be been being it its it's my our your their me you we they he she i do does did done " +
    "can could should would will shall may might must not no yes please help want need like make get use using used " +
    "some any all each every more most other such only own same so too very just also what which who whom when where " +
    "why how skill skills file files"
  ).split(" "),
);

function stem(word: string): string {
  for (const suffix of ["ing", "ies", "es", "ed", "s"]) {
    if (word.length > suffix.length + 3 && word.endsWith(suffix)) {
      return suffix === "ies" ? `${word.slice(0, -3)}y` : word.slice(0, -suffix.length);
    }
  }
  return word;
}

/** The text's content words as written (lower-cased, not stemmed), each once, in order. */
export function contentWordList(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length >= 3 && !STOPWORDS.has(w)))];
}

export function contentWords(text: string): Set<string> {
  return new Set(contentWordList(text).map(stem));
}

export interface ChoiceOptions {
  cutoff: number;
  minShared: number;
  ignore: readonly string[];
}

export const defaultChoice: ChoiceOptions = { cutoff: 0.25, minShared: 2, ignore: builtinSkills };

/**
 * Score = shared content words / the prompt's content words; a skill is chosen when its score reaches the cutoff
 * and it shares at least `minShared` words. The highest score wins; ties go to the skill listed first.
 */
export function scoreSkill(prompt: string, skill: ListedSkill): { score: number; shared: number } {
  const promptWords = contentWords(prompt);
  if (promptWords.size === 0) return { score: 0, shared: 0 };
  const described = contentWords(`${skill.name.replace(/-/g, " ")} ${skill.description}`);
  let shared = 0;
  for (const word of promptWords) if (described.has(word)) shared++;
  return { score: shared / promptWords.size, shared };
}

export function chooseSkill(
  prompt: string,
  skills: readonly ListedSkill[],
  options: ChoiceOptions = defaultChoice,
): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const skill of skills) {
    if (options.ignore.includes(skill.name)) continue;
    const { score, shared } = scoreSkill(prompt, skill);
    if (score < options.cutoff || shared < options.minShared) continue;
    if (!best || score > best.score) best = { name: skill.name, score };
  }
  return best?.name;
}
