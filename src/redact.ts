/** A credential an agent is given: its name (shown in the marker) and its value (never written anywhere). */
export interface Secret {
  name: string;
  value: string;
}

/** Replaces every credential value with `[redacted:NAME]`, as CI systems mask secrets in their logs. */
export interface Redactor {
  /** Names of the credentials being masked; empty when there is nothing to mask. */
  readonly names: readonly string[];
  text(text: string): string;
  /** Byte-level, so binary files and text files alike lose the value's UTF-8 bytes. */
  bytes(bytes: Buffer): Buffer;
  /** The byte-level form over a file read in chunks: a value split across two chunks is masked all the same. */
  byteStream(): ByteRedaction;
}

/** Masks a stream of chunks: each `push` returns what is safe to write so far, `end` the rest. */
export interface ByteRedaction {
  push(chunk: Buffer): Buffer;
  end(): Buffer;
}

/** Every environment variable an agent may authenticate with; grows as adapters come. */
export const CREDENTIAL_VARIABLES: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "OPENAI_API_KEY",
  "CODEX_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
];

// Shorter values (a "1", a "true") would mangle ordinary text and are no secret anyway.
const MIN_SECRET_LENGTH = 8;

export function marker(name: string): string {
  return `[redacted:${name}]`;
}

/** The credential variables set in an environment, in the order of CREDENTIAL_VARIABLES. */
export function environmentSecrets(env: NodeJS.ProcessEnv): Secret[] {
  return CREDENTIAL_VARIABLES.flatMap((name) => {
    const value = env[name];
    return value ? [{ name, value }] : [];
  });
}

// A value also appears JSON-escaped inside a JSON line, and escaped twice when that line is quoted again.
function spellings(value: string): string[] {
  const once = JSON.stringify(value).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [...new Set([value, once, twice])];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

interface Pattern {
  text: string;
  replacement: string;
}

// Longest first: an alternation takes the first alternative that matches, so a longer value wins over its prefix.
function alternation(patterns: readonly Pattern[]): RegExp {
  const sorted = [...patterns].sort((a, b) => b.text.length - a.text.length);
  return new RegExp(sorted.map((p) => escapeRegExp(p.text)).join("|"), "g");
}

function replacer(patterns: readonly Pattern[]): (subject: string) => string {
  // Stryker disable next-line ConditionalExpression: a shortcut, equivalent: an empty pattern list would replace nothing
  if (patterns.length === 0) return (subject) => subject;
  const byText = new Map(patterns.map((p) => [p.text, p.replacement]));
  const regex = alternation(patterns);
  return (subject) => subject.replace(regex, (found) => byText.get(found) ?? found);
}

/**
 * Replaces over latin1 chunks, holding back the last `longest - 1` characters of each: a match that starts before
 * that tail is wholly in view, so the result is the same as replacing over the whole file at once.
 */
function streamingReplacer(patterns: readonly Pattern[]): () => ByteRedaction {
  const byText = new Map(patterns.map((p) => [p.text, p.replacement]));
  const regex = patterns.length === 0 ? undefined : alternation(patterns);
  const overlap = Math.max(0, ...patterns.map((p) => p.text.length)) - 1;
  return () => {
    let carry = "";
    return {
      push(chunk) {
        if (regex === undefined) return chunk;
        const subject = carry + chunk.toString("latin1");
        const cut = Math.max(0, subject.length - overlap);
        let out = "";
        let from = 0;
        regex.lastIndex = 0;
        for (let found = regex.exec(subject); found !== null; found = regex.exec(subject)) {
          if (found.index >= cut) break;
          out += subject.slice(from, found.index) + (byText.get(found[0]) ?? found[0]);
          from = found.index + found[0].length;
        }
        const kept = Math.max(from, cut);
        out += subject.slice(from, kept);
        carry = subject.slice(kept);
        return Buffer.from(out, "latin1");
      },
      end() {
        const rest = carry;
        carry = "";
        if (regex === undefined) return Buffer.alloc(0);
        return Buffer.from(
          rest.replace(regex, (found) => byText.get(found) ?? found),
          "latin1",
        );
      },
    };
  };
}

export function createRedactor(secrets: readonly Secret[]): Redactor {
  const kept = new Map<string, string>();
  for (const { name, value } of secrets)
    if (value.length >= MIN_SECRET_LENGTH && !kept.has(value)) kept.set(value, name);
  const textPatterns: Pattern[] = [];
  for (const [value, name] of kept)
    for (const text of spellings(value)) textPatterns.push({ text, replacement: marker(name) });
  const text = replacer(textPatterns);
  // Latin-1 maps each byte to one character, so a byte sequence becomes a searchable string and back.
  const bytePatterns = textPatterns.map((p) => ({
    text: Buffer.from(p.text, "utf8").toString("latin1"),
    replacement: p.replacement,
  }));
  const latin1 = replacer(bytePatterns);
  return {
    names: [...new Set(kept.values())],
    text,
    // Stryker disable next-line ConditionalExpression: a shortcut, equivalent: with no secret the round trip keeps each byte
    bytes: (bytes) => (kept.size === 0 ? bytes : Buffer.from(latin1(bytes.toString("latin1")), "latin1")),
    byteStream: streamingReplacer(bytePatterns),
  };
}

/** A JSON-ready value with every credential masked; markers need no escaping, so the JSON text stays valid. */
export function redactJson<T>(redactor: Redactor, value: T): T {
  if (redactor.names.length === 0) return value;
  return JSON.parse(redactor.text(JSON.stringify(value))) as T;
}
