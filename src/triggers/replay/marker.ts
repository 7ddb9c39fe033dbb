import { randomBytes } from "node:crypto";

/** The placeholder query a capture run is given: unique, and plain letters and digits, so no wire escapes it. */
export function replayMarker(unique: string = randomBytes(8).toString("hex")): string {
  return `SKILLGYMREPLAYQUERY${unique}`;
}

/** The query as it stands inside a JSON string: escaped as JSON.stringify escapes it, without the quotes. */
export function jsonStringContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The captured body with the query put wherever the agent had put the marker. */
export function withQuery(body: string, marker: string, query: string): string {
  const escaped = jsonStringContent(query);
  return body.split(marker).join(escaped);
}
