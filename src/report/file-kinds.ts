import { extname } from "node:path";
import type { OutputKind } from "./view-model.js";

export const imageTypes: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".bmp": "image/bmp",
  ".ico": "image/x-icon",
  ".svg": "image/svg+xml",
};

const codeExtensions = new Set(
  (
    ".js .mjs .cjs .ts .tsx .jsx .py .rb .go .rs .java .kt .c .h .cc .cpp .hpp .cs .php .swift .sh .bash .zsh " +
    ".ps1 .sql .html .htm .css .scss .xml .yaml .yml .toml .ini .cfg .conf .env .lua .r .pl .dockerfile .tf " +
    ".vue .svelte .graphql .proto .mk .gradle .jsonl .ndjson .diff .patch"
  ).split(" "),
);

const textExtensions = new Set(".txt .log .csv .tsv .rst .adoc .tex .srt .vtt".split(" "));

/** The kind a file is shown as, from its name; undefined when only its bytes can tell. */
export function kindFromName(path: string): OutputKind | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === ".md" || ext === ".markdown" || ext === ".mdx") return "markdown";
  if (ext === ".json") return "json";
  if (ext in imageTypes) return "image";
  if (codeExtensions.has(ext)) return "code";
  if (textExtensions.has(ext)) return "text";
  // These names have no extension, so a name with one never matches.
  // Stryker disable next-line StringLiteral: equivalent, split gives at least one part
  const name = path.split("/").at(-1) ?? "";
  if (/^(Makefile|Dockerfile|LICENSE|README|CHANGELOG|NOTICE)$/i.test(name)) return "text";
  return undefined;
}

/** Text when the first bytes hold no NUL and decode as UTF-8. */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, trimPartialCharacter(head)));
    return true;
  } catch {
    return false;
  }
}

// A read cut short may end inside a multi-byte character; that alone does not make a file binary.
function trimPartialCharacter(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(3, end); back++) {
    const byte = bytes[end - back] ?? 0;
    if ((byte & 0xc0) === 0xc0) return end - back;
    if ((byte & 0x80) === 0) break;
  }
  return end;
}

export function contentTypeOf(path: string): string | undefined {
  return imageTypes[extname(path).toLowerCase()];
}
