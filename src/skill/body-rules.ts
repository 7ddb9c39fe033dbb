import type { Finding } from "../findings.js";
import { findReferences } from "./references.js";

export const MAX_BODY_LINES = 500;
export const MAX_BODY_TOKENS = 5000;

export interface BodyRuleInput {
  file: string;
  body: string;
  bodyStartLine: number;
  /** Files of the skill folder, as `/`-separated paths relative to it; undefined skips the reference checks. */
  skillFiles: ReadonlySet<string> | undefined;
}

// A rough token count (four characters a token), good enough to flag a body that crowds the context window.
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function checkBody(input: BodyRuleInput): Finding[] {
  return [...checkSize(input), ...checkReferences(input)];
}

function checkSize({ file, body }: BodyRuleInput): Finding[] {
  const findings: Finding[] = [];
  if (body.trim() === "") {
    findings.push({
      severity: "warning",
      code: "body-empty",
      file,
      message: "SKILL.md has no instructions after the frontmatter",
      hint: "write the instructions the agent should follow once it picks this skill",
    });
    return findings;
  }
  // Stryker disable next-line StringLiteral: equivalent, only lines are counted, and no replacement holds a newline
  const withoutTrailingNewlines = body.replace(/\n+$/, "");
  const lineCount = withoutTrailingNewlines.split("\n").length;
  if (lineCount > MAX_BODY_LINES) {
    findings.push({
      severity: "warning",
      code: "body-too-long",
      file,
      message: `the body has ${lineCount} lines; keep it under ${MAX_BODY_LINES}`,
      hint: "move detail into files under references/ and link to them from SKILL.md",
    });
  }
  const tokens = estimateTokens(body);
  if (tokens > MAX_BODY_TOKENS) {
    findings.push({
      severity: "warning",
      code: "body-too-many-tokens",
      file,
      message: `the body is about ${tokens} tokens; keep it under ~${MAX_BODY_TOKENS}`,
      hint: "move detail into files under references/ so it is loaded only when needed",
    });
  }
  return findings;
}

function checkReferences({ file, body, bodyStartLine, skillFiles }: BodyRuleInput): Finding[] {
  if (skillFiles === undefined) return [];
  const folders = foldersOf(skillFiles);
  const byLowerCase = new Map([...skillFiles, ...folders].map((path) => [path.toLowerCase(), path]));
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const reference of findReferences(body)) {
    const location = `line ${bodyStartLine + reference.bodyLine}`;
    const key = `${location}\0${reference.target}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const path = reference.path;
    // Only links leave the folder: a mention's file-name pattern has no `..` segment.
    if (path === undefined) {
      findings.push({
        severity: "warning",
        code: "reference-outside-skill",
        file,
        location,
        message: `\`${reference.target}\` points outside the skill folder, so it does not travel with the skill`,
        hint: "copy the file into the skill folder (for example under references/) and link to that copy",
      });
      continue;
    }
    // The suite lives in evals/, which packages leave out on purpose: a link to it is not a missing file.
    if (skillFiles.has(path) || folders.has(path) || path === "evals" || path.startsWith("evals/")) continue;
    const differentCase = byLowerCase.get(path.toLowerCase());
    if (differentCase !== undefined) {
      findings.push({
        severity: "warning",
        code: "reference-case-mismatch",
        file,
        location,
        message: `\`${reference.target}\` is \`${differentCase}\` in the skill folder: found on macOS and Windows, missing on Linux`,
        hint: `write \`${differentCase}\`, or rename the file to match`,
      });
    } else if (reference.kind === "link") {
      findings.push({
        severity: "warning",
        code: "missing-reference",
        file,
        location,
        message: `\`${reference.target}\` is not in the skill folder (missing, or left out when packaged)`,
        hint: "create the file, correct the path (it is relative to the skill folder), or remove the reference",
      });
    }
  }
  return findings;
}

function foldersOf(files: ReadonlySet<string>): Set<string> {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/");
    // Stryker disable next-line EqualityOperator: equivalent, the file itself is looked up among the files as well
    for (let end = 1; end < parts.length; end++) folders.add(parts.slice(0, end).join("/"));
  }
  return folders;
}
