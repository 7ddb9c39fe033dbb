import { readFile } from "node:fs/promises";
import { TextDecoder } from "node:util";
import type { Check } from "../../contracts/checks.js";
import type { CheckContext, CheckVerdict } from "./context.js";
import { errorMessage, headOf, plural } from "./evidence.js";
import { locateInWorkspace } from "./workspace-file.js";

type FileContainsCheck = Extract<Check, { type: "file_contains" }>;

const MAX_FILE_BYTES = 20 * 1024 * 1024;
const FILE_HEAD_CHARS = 300;
const LINE_CHARS = 200;

export function describeFileContains(check: FileContainsCheck): string {
  const verb = check.negate ? "does not match" : "matches";
  return `${check.path} ${verb} ${regexLiteral(check)}`;
}

export async function gradeFileContains(check: FileContainsCheck, ctx: CheckContext): Promise<CheckVerdict> {
  const literal = regexLiteral(check);
  let regex: RegExp;
  try {
    regex = new RegExp(check.pattern, check.flags);
  } catch (error) {
    return {
      passed: false,
      evidence: `${literal} is not a valid regular expression: ${errorMessage(error)}`,
    };
  }
  const found = await locateInWorkspace(ctx.workspaceDir, check.path);
  if (found.kind !== "found") return { passed: false, evidence: found.reason };
  const { rel, stats } = found;
  if (stats.isDirectory()) return { passed: false, evidence: `${rel} is a directory, not a file` };
  if (!stats.isFile()) return { passed: false, evidence: `${rel} is not a regular file` };
  if (stats.size > MAX_FILE_BYTES) {
    return {
      passed: false,
      evidence: `${rel} is too large to search (${stats.size} bytes, the limit is 20 MiB)`,
    };
  }
  const text = decodeText(await readFile(found.abs));
  if (text === undefined) {
    return {
      passed: false,
      evidence: `${rel} is a binary file (not UTF-8 text), so ${literal} cannot be checked`,
    };
  }
  const match = regex.exec(text);
  if (match) {
    const where = `line ${lineNumberAt(text, match.index)} of ${rel}: ${quoteLine(text, match.index)}`;
    return check.negate
      ? { passed: false, evidence: `${literal} was found on ${where}` }
      : { passed: true, evidence: `Found on ${where}` };
  }
  const lines = countLines(text);
  if (check.negate) {
    return {
      passed: true,
      evidence: `No match for ${literal} in ${rel} (${plural(lines, "line", "lines")})`,
    };
  }
  if (text === "") return { passed: false, evidence: `No match for ${literal}: ${rel} is empty` };
  return {
    passed: false,
    evidence: `No match for ${literal} in ${rel} (${plural(lines, "line", "lines")}); it begins:\n${firstLines(text)}`,
  };
}

function regexLiteral(check: FileContainsCheck): string {
  return `/${check.pattern}/${check.flags ?? ""}`;
}

// Patterns are written once for every platform: a BOM is dropped (the decoder does it) and CRLF line endings read
// as LF, so `^…$` with the m flag matches a line whatever editor or OS wrote the file.
function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.replace(/\r\n/g, "\n");
  } catch {}
  return undefined;
}

// Whole lines when they fit, so the quote does not stop mid-word.
function firstLines(text: string): string {
  const head = headOf(text, FILE_HEAD_CHARS);
  if (head === text) return text;
  const lastBreak = head.lastIndexOf("\n");
  return lastBreak > FILE_HEAD_CHARS / 2 ? `${head.slice(0, lastBreak)}\n…` : head;
}

function countLines(text: string): number {
  if (text === "") return 0;
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? breaks : breaks + 1;
}

function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) line++;
  return line;
}

function quoteLine(text: string, index: number): string {
  // Stryker disable next-line ConditionalExpression: equivalent, at 0 the search finds at most a break at 0 and the line is "" either way
  const start = index === 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
  const endAt = text.indexOf("\n", index);
  const line = text.slice(start, endAt === -1 ? text.length : endAt);
  if (line.length <= LINE_CHARS) return JSON.stringify(line);
  const column = index - start;
  const from = Math.max(0, column - LINE_CHARS / 2);
  const excerpt = line.slice(from, from + LINE_CHARS);
  return `${from > 0 ? "…" : ""}${JSON.stringify(excerpt)}${from + LINE_CHARS < line.length ? "…" : ""}`;
}
