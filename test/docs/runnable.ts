import { splitFences } from "./markdown.js";

export interface DocCommand {
  /** The arguments after `skillgym`. */
  args: string[];
  line: number;
}

/** A fenced block marked `sh runnable [exit=N]`, and the `text output` block after it, if any. */
export interface RunnableBlock {
  page: string;
  line: number;
  exit: number;
  commands: DocCommand[];
  /** Lines the block's last command prints on stdout; `…` stands for any text. */
  output: string[] | undefined;
  /** What is wrong with the block itself (a line that is no skillgym command, an unknown marker word). */
  problems: string[];
}

/** Splits a command line as a POSIX shell would for the plain cases: spaces, '…', "…" and \ escapes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word = `${word ?? ""}${line[++i]}`;
      else word = `${word ?? ""}${c}`;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "#" && word === undefined) {
      break;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} in: ${line}`);
  if (word !== undefined) words.push(word);
  return words;
}

function parseInfo(info: string): { runnable: boolean; exit: number; problems: string[] } {
  const [lang, ...words] = info.split(/\s+/);
  if (lang !== "sh" || !words.includes("runnable")) return { runnable: false, exit: 0, problems: [] };
  let exit = 0;
  const problems: string[] = [];
  for (const word of words) {
    const code = /^exit=(\d+)$/.exec(word)?.[1];
    if (code !== undefined) exit = Number(code);
    else if (word !== "runnable") problems.push(`unknown marker word "${word}" (known: runnable, exit=N)`);
  }
  return { runnable: true, exit, problems };
}

/** The runnable blocks of a page, in order. */
export function runnableBlocks(page: string, text: string): RunnableBlock[] {
  const { fences } = splitFences(text);
  const blocks: RunnableBlock[] = [];
  fences.forEach((fence, k) => {
    const { runnable, exit, problems } = parseInfo(fence.info);
    if (!runnable) return;
    const commands: DocCommand[] = [];
    fence.lines.forEach((raw, i) => {
      const line = fence.line + 1 + i;
      let words: string[];
      try {
        words = shellWords(raw);
      } catch (error) {
        problems.push(`line ${line}: ${(error as Error).message}`);
        return;
      }
      if (words.length === 0) return;
      const start = words[0] === "npx" ? 1 : 0;
      if (words[start] !== "skillgym") {
        problems.push(`line ${line} is not a skillgym command: ${raw.trim()}`);
        return;
      }
      commands.push({ args: words.slice(start + 1), line });
    });
    if (commands.length === 0) problems.push("the block holds no command");
    const next = fences[k + 1];
    const output = next?.info === "text output" ? next.lines.filter((l) => l.trim() !== "") : undefined;
    blocks.push({ page, line: fence.line, exit, commands, output, problems });
  });
  return blocks;
}

/** A line of a `text output` block as a pattern for one whole line of output; `…` matches any text. */
export function outputPattern(line: string): RegExp {
  const parts = line
    .trim()
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^\\s*${parts.join(".*")}\\s*$`);
}
