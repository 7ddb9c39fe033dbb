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

function replacer(patterns: readonly Pattern[]): (subject: string) => string {
  // Stryker disable next-line ConditionalExpression: a shortcut, equivalent: an empty pattern list would replace nothing
  if (patterns.length === 0) return (subject) => subject;
  const byText = new Map(patterns.map((p) => [p.text, p.replacement]));
  // Longest first: an alternation takes the first alternative that matches, so a longer value wins over its prefix.
  const sorted = [...patterns].sort((a, b) => b.text.length - a.text.length);
  const regex = new RegExp(sorted.map((p) => escapeRegExp(p.text)).join("|"), "g");
  return (subject) => subject.replace(regex, (found) => byText.get(found) ?? found);
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
  const latin1 = replacer(
    textPatterns.map((p) => ({
      text: Buffer.from(p.text, "utf8").toString("latin1"),
      replacement: p.replacement,
    })),
  );
  return {
    names: [...new Set(kept.values())],
    text,
    // Stryker disable next-line ConditionalExpression: a shortcut, equivalent: with no secret the round trip keeps each byte
    bytes: (bytes) => (kept.size === 0 ? bytes : Buffer.from(latin1(bytes.toString("latin1")), "latin1")),
  };
}

/** A JSON-ready value with every credential masked; markers need no escaping, so the JSON text stays valid. */
export function redactJson<T>(redactor: Redactor, value: T): T {
  if (redactor.names.length === 0) return value;
  return JSON.parse(redactor.text(JSON.stringify(value))) as T;
}
