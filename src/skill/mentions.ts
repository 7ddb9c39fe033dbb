// Extensions of files a skill bundles or names; code such as `foo.bar()` or `os.path` has none of them.
const FILE_EXTENSIONS =
  "md|markdown|txt|py|sh|bash|ps1|js|mjs|cjs|ts|json|jsonl|yaml|yml|toml|csv|tsv|xml|html|htm|css|sql|pdf|docx|xlsx|pptx|png|jpe?g|svg|gif|ipynb|rb|go|rs|java";
const FILE_NAME = `(?:\\./)?(?:[\\w-]+/)*[\\w-][\\w.-]*\\.(?:${FILE_EXTENSIONS})`;
const IN_PROSE = new RegExp(`(?<![\\w./\\\\@:-])(${FILE_NAME})(?![\\w/-])`, "gi");
const WHOLE_TOKEN = new RegExp(`^${FILE_NAME}$`, "i");
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+|\bwww\.\S+/gi;

/** Relative file names written in prose, outside links, URLs and code spans. */
export function proseMentions(prose: string): string[] {
  // A URL's last character is followed by a space or the end either way, so what it is replaced by matters little.
  // Stryker disable next-line StringLiteral: equivalent, the lookarounds see the same characters around the gap
  const text = prose.replace(URL, " ");
  // The lookarounds take no characters: the match is the file name.
  return Array.from(text.matchAll(IN_PROSE), (m) => m[0]);
}

/** Whether a token of a code span is a relative file name (`REFERENCE.md`, `scripts/fill.py`). */
export function isFileToken(token: string): boolean {
  return WHOLE_TOKEN.test(token);
}
