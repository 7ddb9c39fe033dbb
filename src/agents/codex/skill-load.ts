/** Codex's own skills, installed in `$CODEX_HOME/skills/.system`: never the skill under test, nor a competitor. */
export const systemSkills = ["imagegen", "openai-docs", "skill-creator", "skill-installer"];

// Programs that print a file: Codex "uses" a skill by reading its SKILL.md with one of them through its shell tool.
const READERS = new Set([
  "cat",
  "sed",
  "head",
  "tail",
  "less",
  "more",
  "nl",
  "awk",
  "bat",
  "batcat",
  "grep",
  "rg",
]);

// `<root>/<name>/SKILL.md`, where the root is a `…/skills` folder (absolute or relative) or a roots-table alias (`r1`).
const SKILL_FILE =
  /(?:^|[\s'"=(/])((?:[^\s'"]*?\/)?(?:skills|r\d+)\/(\.system\/)?([^/\s'"]+)\/SKILL\.md)(?=$|[\s'";|&)])/gi;

/** The command Codex ran, without the `/bin/bash -lc '…'` wrapper it reports. */
export function innerCommand(command: string): string {
  const match = /^\S*\/?(?:ba|z)?sh\s+-l?c\s+(['"])([\s\S]*)\1\s*$/.exec(command.trim());
  if (!match) return command;
  return match[1] === "'" ? match[2]!.replace(/'\\''/g, "'") : match[2]!;
}

// Stryker disable next-line Regex,StringLiteral: equivalent, the first word ends at the first space either way, and split always gives one
const firstWord = (part: string) => part.trim().split(/\s+/)[0] ?? "";
// Stryker disable next-line Regex: equivalent, a greedy `.*` matches from the start anyway
const baseName = (word: string) => word.replace(/^.*\//, "");

/** The programs a shell command runs, first word of each pipeline stage or list element. */
export function programsOf(command: string): string[] {
  return innerCommand(command)
    .split(/\|\||&&|[|;&\n]/)
    .map(firstWord)
    .map(baseName)
    .filter(Boolean);
}

/**
 * The skill a shell command loads, if it loads one: it runs a reader on a SKILL.md under a skills root (absolute or
 * root-relative). Built-in `.system` skills load nothing of ours.
 */
export function skillReadBy(command: string): string | undefined {
  const inner = innerCommand(command);
  if (!programsOf(inner).some((p) => READERS.has(p))) return undefined;
  for (const match of inner.matchAll(SKILL_FILE)) {
    if (match[2]) continue;
    return match[3];
  }
  return undefined;
}
