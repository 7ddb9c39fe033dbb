import { SkillgymError } from "../../errors.js";

/** The prefix of an `--agent` value naming an ACP agent by its command: `acp:<command…>`. */
export const ACP_PREFIX = "acp:";

/** Whether an `--agent` value names an ACP agent by its command. */
export function isAcpCommand(value: string): boolean {
  return value.startsWith(ACP_PREFIX);
}

/**
 * A command line split into words as a POSIX shell would split a simple command: whitespace separates, single quotes
 * keep everything, double quotes keep everything but `\"` and `\\`, a backslash outside quotes escapes one character.
 * No variables, globs or operators: the words are the program and its arguments, nothing is run through a shell.
 */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && (text[i + 1] === '"' || text[i + 1] === "\\")) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}

/** The program and arguments of an `acp:<command…>` value, or the error that says what is wrong with it (exit 2). */
export function acpCommandOf(value: string, flag = "--agent"): string[] {
  const text = value.slice(ACP_PREFIX.length);
  let words: string[];
  try {
    words = splitCommand(text);
  } catch (error) {
    throw new SkillgymError("USAGE", `${flag} ${value}: ${(error as Error).message}`, {
      hint: `name the agent's command after "acp:", e.g. ${flag} 'acp:gemini --acp'`,
    });
  }
  if (words.length === 0)
    throw new SkillgymError("USAGE", `${flag} ${value}: no command after "acp:"`, {
      hint: `name the agent's command after "acp:", e.g. ${flag} 'acp:gemini --acp'`,
    });
  return words;
}
