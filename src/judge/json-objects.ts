type Json = Record<string, unknown>;

function tryParseObject(text: string): Json | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {}
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

// The end of the balanced {...} starting at `start`, skipping braces inside JSON strings; undefined when it never closes.
function objectEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  // Stryker disable next-line EqualityOperator: equivalent, the character past the end is undefined and matches nothing
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return undefined;
}

/** The JSON objects in a model's answer, in order: the whole answer, ``` fences, then objects inside prose. */
export function jsonObjectsIn(text: string, limit = 20): Json[] {
  const found: Json[] = [];
  const whole = tryParseObject(text);
  if (whole !== undefined) found.push(whole);
  for (const fence of text.matchAll(/```[a-zA-Z]*\r?\n([\s\S]*?)```/g)) {
    // Stryker disable next-line StringLiteral: equivalent, the group takes part in every match (empty at least)
    const parsed = tryParseObject(fence[1] ?? "");
    if (parsed !== undefined) found.push(parsed);
  }
  for (let at = text.indexOf("{"); at >= 0 && found.length < limit; at = text.indexOf("{", at + 1)) {
    const end = objectEnd(text, at);
    // An object that never closes holds the rest of the text (an answer cut off): its inner objects are not answers.
    if (end === undefined) break;
    const parsed = tryParseObject(text.slice(at, end + 1));
    if (parsed !== undefined) {
      found.push(parsed);
      at = end;
    }
  }
  return found;
}
