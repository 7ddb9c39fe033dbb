// Works on latin1 text (one character per byte), so every byte outside the `name:` line survives unchanged,
// whatever the encoding, line endings or BOM of the file.
const BOM = "\xEF\xBB\xBF";

/**
 * Sets the frontmatter `name` of a SKILL.md to `name` (trigger evals install the skill under a unique synthetic
 * name). A missing `name` key is added as the first key. Returns undefined when the file has no frontmatter.
 */
export function renameSkillInFrontmatter(content: Uint8Array, name: string): Buffer | undefined {
  const text = Buffer.from(content).toString("latin1");
  const bom = text.startsWith(BOM) ? BOM : "";
  const lines = splitLines(text.slice(bom.length));
  const opening = lines[0];
  if (opening === undefined || !isFence(opening)) return undefined;
  const closing = lines.findIndex((line, i) => i > 0 && isFence(line));
  if (closing === -1) return undefined;
  const nameLine = Buffer.from(`name: ${yamlScalar(name)}`, "utf8").toString("latin1");
  // The opening fence (line 0) never matches, so the indexes are those of `lines`.
  const at = lines.slice(0, closing).findIndex((line) => /^name[ \t]*:/.test(line));
  if (at === -1) {
    lines.splice(1, 0, nameLine + lineEnding(opening));
  } else {
    const current = lines[at]!;
    const value = current.slice(current.indexOf(":") + 1).trim();
    let end = at + 1;
    if (value === "" || value.startsWith("|") || value.startsWith(">")) {
      // Indented or blank lines continue the value; the closing fence, neither, ends them.
      while (/^([ \t]|\r?\n)/.test(lines[end]!)) end++;
    }
    lines.splice(at, end - at, nameLine + lineEnding(current));
  }
  return Buffer.from(bom + lines.join(""), "latin1");
}

/** The frontmatter `name` of a SKILL.md when written on one line, unquoted or quoted. */
export function frontmatterName(content: Uint8Array): string | undefined {
  const text = Buffer.from(content)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  const lines = splitLines(text);
  if (lines[0] === undefined || !isFence(lines[0])) return undefined;
  for (const line of lines.slice(1)) {
    if (isFence(line)) return undefined;
    const match = /^name[ \t]*:[ \t]*(.*?)\s*$/.exec(line);
    if (match) {
      const value = match[1]!.replace(/^(["'])(.*)\1$/, "$2");
      return value === "" || /^[|>]/.test(value) ? undefined : value;
    }
  }
  return undefined;
}

function splitLines(text: string): string[] {
  // Stryker disable next-line ArrayDeclaration: equivalent, an empty text and a text of one line that is no fence both have no frontmatter
  return text.match(/[^\n]*\n|[^\n]+/g) ?? [];
}

function isFence(line: string): boolean {
  return line.trimEnd() === "---";
}

function lineEnding(line: string): string {
  if (line.endsWith("\r\n")) return "\r\n";
  return "\n";
}

function yamlScalar(value: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value) ? value : JSON.stringify(value);
}
