import { posix } from "node:path";
import { isFileToken, proseMentions } from "./mentions.js";

export interface BodyReference {
  /** The path as written in the body. */
  target: string;
  /** The target normalised relative to the skill folder; undefined when it climbs out of the folder. */
  path: string | undefined;
  /** 0-based line index within the body. */
  bodyLine: number;
  /** `link`: a link or a bundled path, which must exist; `mention`: a file name in text, which may name the user's file. */
  kind: "link" | "mention";
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)(.+?)\1/g;
const INLINE_LINK = /!?\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+["'(][^)]*)?\s*\)/g;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const BUNDLED_PREFIX = /^(\.\/)?(scripts|references|assets)\/./;
const NOT_A_PATH = /[*?<>{}$[\]|]|\.\.\./;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

// Markdown links, link definitions and backticked `scripts/`, `references/`, `assets/` paths outside fenced
// code blocks: the places where a skill points at its own bundled files. Code blocks hold examples, so they are skipped.
// Other file names in backticks or prose are mentions: they may name the user's files, so only their case is judged.
export function findReferences(body: string): BodyReference[] {
  const references: BodyReference[] = [];
  let fence: string | undefined;
  body.split("\n").forEach((line, bodyLine) => {
    const opening = FENCE_OPEN.exec(line)?.[1];
    if (fence !== undefined) {
      // Stryker disable next-line MethodExpression: equivalent, a fence is one character repeated, so it starts as it ends
      if (opening?.startsWith(fence) && line.trim() === opening) fence = undefined;
      return;
    }
    if (opening !== undefined) {
      fence = opening;
      return;
    }
    const add = (target: string, kind: BodyReference["kind"] = "link"): void => {
      const path = toSkillPath(target);
      if (path !== null) references.push({ target, path, bodyLine, kind });
    };
    for (const span of line.matchAll(CODE_SPAN)) {
      // Stryker disable next-line MethodExpression,Regex,StringLiteral: equivalent, the empty tokens either way name no file, and the span's text always matches
      for (const token of (span[2] ?? "").trim().split(/\s+/)) {
        const candidate = token.replace(/[.,;:)'"]+$/, "");
        // Wildcards and placeholders are left out where the path is read (toSkillPath).
        if (BUNDLED_PREFIX.test(candidate)) add(candidate);
        else if (isFileToken(candidate)) add(candidate, "mention");
      }
    }
    // A code span, like a link, separates the words around it.
    const prose = line.replace(CODE_SPAN, " ");
    // Stryker disable next-line StringLiteral: equivalent, a link's target always matches
    for (const link of prose.matchAll(INLINE_LINK)) add(unwrap(link[1] ?? ""));
    const definition = LINK_DEFINITION.exec(prose)?.[1];
    if (definition !== undefined) add(unwrap(definition));
    const outsideLinks = prose.replace(INLINE_LINK, " ");
    // Stryker disable next-line StringLiteral: equivalent, a definition's target runs to a space or the line's end, so nothing joins across it
    const text = outsideLinks.replace(LINK_DEFINITION, " ");
    for (const mention of proseMentions(text))
      add(mention, BUNDLED_PREFIX.test(mention) ? "link" : "mention");
  });
  return references;
}

// null: not a local file (a URL, an anchor, an absolute path); undefined: a path that leaves the skill folder.
function toSkillPath(target: string): string | undefined | null {
  if (URL_SCHEME.test(target) || /^[#/\\~]/.test(target)) return null;
  // Stryker disable next-line Regex: equivalent, a target is one line, so .* reaches its end
  let path = target.replace(/[?#].*$/, "");
  try {
    path = decodeURIComponent(path);
  } catch {
    // A stray `%` is a literal character of the file name.
  }
  if (NOT_A_PATH.test(path)) return null;
  // An empty path normalises to ".", the folder itself.
  const normalized = posix.normalize(path).replace(/\/$/, "");
  if (normalized === ".." || normalized.startsWith("../")) return undefined;
  return normalized === "." ? null : normalized;
}

function unwrap(target: string): string {
  return target.startsWith("<") && target.endsWith(">") ? target.slice(1, -1) : target;
}
