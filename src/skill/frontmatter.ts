import { type Document, LineCounter, parseDocument, type YAMLError } from "yaml";
import type { Finding } from "../findings.js";

export interface Frontmatter {
  /** The parsed YAML document, kept for the source ranges of its keys. */
  document: Document.Parsed;
  /** The document as plain data (`null` for an empty frontmatter). */
  data: unknown;
  /** Everything after the closing `---`, with LF line endings. */
  body: string;
  /** Line of SKILL.md on which the body starts (1-based). */
  bodyStartLine: number;
  /** Line of SKILL.md holding a character offset of the YAML text. */
  lineOf(offset: number): number;
  /** `line N, column C` of SKILL.md for a character offset of the YAML text. */
  positionOf(offset: number): string;
}

export interface FrontmatterResult {
  /** Undefined when there is no frontmatter to work with (missing, unclosed, or not valid YAML). */
  frontmatter: Frontmatter | undefined;
  findings: Finding[];
}

const FENCE = /^---[ \t]*$/;
// The opening `---` is line 1 of SKILL.md, so YAML line 1 is file line 2.
const YAML_LINE_OFFSET = 1;

const SHAPE_HINT =
  "start SKILL.md with a line `---`, then `name:` and `description:` lines, then a closing `---`";

export function normalizeText(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

// Splits SKILL.md into its YAML frontmatter and its markdown body; line numbers refer to the file.
export function parseFrontmatter(text: string, file: string): FrontmatterResult {
  const lines = normalizeText(text).split("\n");
  // Stryker disable next-line StringLiteral: equivalent, split always returns at least one line
  if (!FENCE.test(lines[0] ?? "")) {
    return { frontmatter: undefined, findings: [missingOpening(lines, file)] };
  }
  const closing = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (closing === -1) {
    return {
      frontmatter: undefined,
      findings: [
        {
          severity: "error",
          code: "frontmatter-unclosed",
          file,
          location: "line 1",
          message: "the frontmatter opened by `---` on line 1 is never closed",
          hint: "add a line `---` after the last frontmatter key, before the instructions",
        },
      ],
    };
  }

  const yamlText = lines.slice(1, closing).join("\n");
  const lineCounter = new LineCounter();
  const document = parseDocument(yamlText, { lineCounter, prettyErrors: false });
  const lineOf = (offset: number): number => lineCounter.linePos(offset).line + YAML_LINE_OFFSET;
  const positionOf = (offset: number): string => {
    const { line, col } = lineCounter.linePos(offset);
    return `line ${line + YAML_LINE_OFFSET}, column ${col}`;
  };

  const findings = [
    ...yamlErrorFindings(document.errors, file, lineOf, positionOf),
    ...document.warnings.map(
      (warning): Finding => ({
        severity: "warning",
        code: "yaml-warning",
        file,
        location: positionOf(warning.pos[0]),
        message: warning.message,
      }),
    ),
  ];
  if (document.errors.length > 0) return { frontmatter: undefined, findings };
  const data = toData(document);
  if (data instanceof Error) {
    findings.push({
      severity: "error",
      code: "yaml-syntax",
      file,
      location: "line 2",
      message: `the frontmatter cannot be read: ${data.message}`,
      hint: "remove the YAML aliases (`*name`) from the frontmatter",
    });
    return { frontmatter: undefined, findings };
  }

  return {
    frontmatter: {
      document,
      data,
      body: lines.slice(closing + 1).join("\n"),
      bodyStartLine: closing + 2,
      lineOf,
      positionOf,
    },
    findings,
  };
}

// Alias expansion can refuse a document (an alias bomb); that is bad input, not a crash.
function toData(document: Document.Parsed): unknown {
  try {
    return document.toJS();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function missingOpening(lines: string[], file: string): Finding {
  const firstUsed = lines.findIndex((line) => line.trim() !== "");
  // Line 1 is not a fence here, and with no used line at all `lines[-1]` is undefined.
  // Stryker disable next-line StringLiteral: equivalent, the fallback only stands in for `lines[-1]` and no replacement is a fence
  const fenceLater = FENCE.test(lines[firstUsed] ?? "");
  return {
    severity: "error",
    code: "frontmatter-missing",
    file,
    location: "line 1",
    message: fenceLater
      ? `SKILL.md must start with \`---\`, but the frontmatter starts on line ${firstUsed + 1}`
      : "SKILL.md has no frontmatter: its first line is not `---`",
    hint: fenceLater ? "remove the blank lines before the opening `---`" : SHAPE_HINT,
  };
}

// One finding per line: the YAML parser reports follow-on errors that only repeat the first.
function yamlErrorFindings(
  errors: readonly YAMLError[],
  file: string,
  lineOf: (offset: number) => number,
  positionOf: (offset: number) => string,
): Finding[] {
  const seenLines = new Set<number>();
  const findings: Finding[] = [];
  for (const error of errors) {
    const line = lineOf(error.pos[0]);
    if (seenLines.has(line)) continue;
    seenLines.add(line);
    findings.push({
      severity: "error",
      code: "yaml-syntax",
      file,
      location: positionOf(error.pos[0]),
      message: `invalid YAML in the frontmatter: ${error.message}`,
      hint: yamlHint(error.code),
    });
  }
  return findings;
}

function yamlHint(code: YAMLError["code"]): string {
  switch (code) {
    case "BLOCK_AS_IMPLICIT_KEY":
    case "MULTILINE_IMPLICIT_KEY":
      return 'a ": " inside an unquoted value starts a new key: quote the value, or write it as a block scalar (`description: >-` with the text indented on the next lines)';
    case "DUPLICATE_KEY":
      return "each key may appear only once: remove or merge the repeated key";
    case "TAB_AS_INDENT":
      return "indent with spaces, not tabs";
    default:
      return "fix the YAML syntax; quoting values that contain `:`, `#`, `'` or `\"` usually helps";
  }
}
