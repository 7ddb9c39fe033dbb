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
    "why how skill skills file files user users ask asks asked whenever claude etc"
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

// Finer than `stem` ("updates" and "update" agree), used only for two-word phrases so single-word scores keep their
// long-standing behaviour.
function phraseStem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && /(?:ss|ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  else if (w.length > 6 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 5 && w.endsWith("ed")) w = w.slice(0, -2);
  return w.length > 4 && w.endsWith("e") ? w.slice(0, -1) : w;
}

/** Whether a word (lower-cased) is too common to say what a text is about. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

// Words of 3+ letters count, and so do short tokens that mix letters and digits ("3P", "v2", "s3").
function meaningful(word: string): boolean {
  if (STOPWORDS.has(word)) return false;
  return word.length >= 3 || (/\p{N}/u.test(word) && /\p{L}/u.test(word));
}

/** The text's content words as written (lower-cased, not stemmed), each once, in order. */
export function contentWordList(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter(meaningful))];
}

// A capitalised word (a sentence's first) is lower-cased; CSV, 3P and JSON keep their case.
function asWritten(word: string): string {
  return /^\p{Lu}\p{Ll}+$/u.test(word) ? word.toLowerCase() : word;
}

/**
 * The text's phrases: runs of content words that punctuation and stop words do not break ("status reports",
 * "3P updates", "per-column statistics"), each once, in order, at most `maxWords` words long.
 */
export function contentPhrases(text: string, maxWords = 3): string[] {
  const phrases: string[] = [];
  const seen = new Set<string>();
  const flush = (run: string[]) => {
    const phrase = run.slice(-maxWords).join(" ");
    if (phrase && !seen.has(phrase.toLowerCase())) {
      seen.add(phrase.toLowerCase());
      phrases.push(phrase);
    }
  };
  // Every mark but a dash or a quote ends a phrase; a dash or quote that stands alone leaves an empty word, which
  // does too.
  for (const segment of text.split(/[^\p{L}\p{N}\s'-]/u)) {
    let run: string[] = [];
    for (const raw of segment.split(/\s+/)) {
      const word = raw.replace(/^['-]+|['-]+$/g, "");
      // A stop word (it's too) and an empty word have no meaningful part.
      if (word.toLowerCase().split(/['-]/).some(meaningful)) run.push(asWritten(word));
      else {
        flush(run);
        run = [];
      }
    }
    flush(run);
  }
  return phrases;
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

/** How one listed skill fared against a prompt. */
export interface SkillVerdict {
  name: string;
  /** The prompt's content words (as written) that the skill's name or description also has. */
  shared: string[];
  score: number;
  chosen: boolean;
  /** Why it was or was not chosen, in a sentence. */
  reason: string;
}

export interface ChoiceExplanation {
  /** The prompt's content words as written: the denominator of every score. */
  promptWords: string[];
  cutoff: number;
  minShared: number;
  chosen: string | undefined;
  skills: SkillVerdict[];
}

/** Adjacent pairs of content words ("3p update"), finely stemmed, each as one string. */
function phrases(text: string): Map<string, [string, string]> {
  // Stryker disable next-line ArrayDeclaration: equivalent, any one word makes no pair
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const pairs = new Map<string, [string, string]>();
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1]!, words[i]!];
    if (meaningful(a) && meaningful(b)) pairs.set(`${phraseStem(a)} ${phraseStem(b)}`, [a, b]);
  }
  return pairs;
}

// A prompt word is shared when its stem is in the description, or it is half of a phrase the description has.
function sharedWords(prompt: string, promptWords: readonly string[], skill: ListedSkill): string[] {
  const text = `${skill.name.replace(/-/g, " ")} ${skill.description}`;
  const described = contentWords(text);
  const describedPhrases = phrases(text);
  const inPhrase = new Set<string>();
  for (const [key, pair] of phrases(prompt))
    if (describedPhrases.has(key)) for (const w of pair) inPhrase.add(w);
  // The prompt's words are each of a different stem already (promptWordsOf).
  return promptWords.filter((word) => described.has(stem(word)) || inPhrase.has(word));
}

function promptWordsOf(prompt: string): string[] {
  const seen = new Set<string>();
  return contentWordList(prompt).filter((word) => {
    const stemmed = stem(word);
    if (seen.has(stemmed)) return false;
    seen.add(stemmed);
    return true;
  });
}

/**
 * Score = shared content words / the prompt's content words; a skill is chosen when its score reaches the cutoff
 * and it shares at least `minShared` words. The highest score wins; ties go to the skill listed first.
 */
export function scoreSkill(prompt: string, skill: ListedSkill): { score: number; shared: number } {
  const promptWords = promptWordsOf(prompt);
  if (promptWords.length === 0) return { score: 0, shared: 0 };
  const shared = sharedWords(prompt, promptWords, skill).length;
  return { score: shared / promptWords.length, shared };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Every listed skill's shared words, score and the reason it was or was not chosen. */
export function explainChoice(
  prompt: string,
  skills: readonly ListedSkill[],
  options: ChoiceOptions = defaultChoice,
): ChoiceExplanation {
  const promptWords = promptWordsOf(prompt);
  const scored = skills.map((skill) => {
    const shared = promptWords.length === 0 ? [] : sharedWords(prompt, promptWords, skill);
    const score = promptWords.length === 0 ? 0 : shared.length / promptWords.length;
    const ignored = options.ignore.includes(skill.name);
    const eligible = !ignored && score >= options.cutoff && shared.length >= options.minShared;
    return { name: skill.name, shared, score, ignored, eligible };
  });
  let best: (typeof scored)[number] | undefined;
  for (const s of scored) if (s.eligible && (!best || s.score > best.score)) best = s;
  const verdicts = scored.map((s): SkillVerdict => {
    const chosen = s === best;
    let reason: string;
    if (s.ignored) reason = "ignored (a built-in skill, or listed in skill_choice.ignore)";
    else if (promptWords.length === 0) reason = "the prompt has no content words";
    else if (s.shared.length < options.minShared)
      reason = `shares ${s.shared.length} word(s), fewer than the ${options.minShared} needed`;
    else if (s.score < options.cutoff)
      reason = `score ${pct(s.score)} is below the cutoff ${pct(options.cutoff)}`;
    else if (chosen) reason = "the highest score at or above the cutoff";
    else reason = `${best?.name} scored higher or was listed first`;
    return { name: s.name, shared: s.shared, score: s.score, chosen, reason };
  });
  return {
    promptWords,
    cutoff: options.cutoff,
    minShared: options.minShared,
    chosen: best?.name,
    skills: verdicts,
  };
}

export function chooseSkill(
  prompt: string,
  skills: readonly ListedSkill[],
  options: ChoiceOptions = defaultChoice,
): string | undefined {
  return explainChoice(prompt, skills, options).chosen;
}
