type Json = Record<string, unknown>;

function tryParseObject(text: string): Json | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

// The end of the balanced {...} starting at `start`, skipping braces inside JSON strings.
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The JSON objects in a model's answer, in order: the whole answer, ``` fences, then objects inside prose. */
export function jsonObjectsIn(text: string, limit = 20): Json[] {
  const found: Json[] = [];
  const whole = tryParseObject(text);
  if (whole) found.push(whole);
  for (const fence of text.matchAll(/```[a-zA-Z]*\r?\n([\s\S]*?)```/g)) {
    const parsed = tryParseObject(fence[1] ?? "");
    if (parsed) found.push(parsed);
  }
  for (let at = text.indexOf("{"); at >= 0 && found.length < limit; at = text.indexOf("{", at + 1)) {
    const end = objectEnd(text, at);
    if (end < 0) break;
    const parsed = tryParseObject(text.slice(at, end + 1));
    if (parsed) {
      found.push(parsed);
      at = end;
    }
  }
  return found;
}
