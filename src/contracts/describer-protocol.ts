import { readTag } from "./judge-markers.js";

// The protocol between the description optimizer's improver prompt and the simulator: the current description and
// the train failures travel between tags, so the simulator can answer without a model.
const CURRENT = "current-description";
const FAILURES = "train-failures";

/** A train query the current description got wrong, as the improver sees it. */
export interface DescriberFailure {
  query: string;
  should_trigger: boolean;
  trigger_rate: number | null;
}

export function currentDescriptionBlock(description: string): string {
  return `<${CURRENT}>\n${description}\n</${CURRENT}>`;
}

/** The failures as a JSON array between tags; `<` is escaped so no query can close the block early. */
export function trainFailuresBlock(failures: readonly DescriberFailure[]): string {
  const json = JSON.stringify(failures, null, 2).replace(/</g, "\\u003c");
  return `<${FAILURES}>\n${json}\n</${FAILURES}>`;
}

export function readCurrentDescription(text: string): string | undefined {
  return readTag(text, CURRENT);
}

/** The first failures block; undefined when there is none or it is not a JSON array of failures. */
export function readTrainFailures(text: string): DescriberFailure[] | undefined {
  const json = readTag(text, FAILURES);
  const list = json && parseJson(json);
  return Array.isArray(list) ? list.filter(isFailure) : undefined;
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {}
  return undefined;
}

function isFailure(f: unknown): f is DescriberFailure {
  // A JSON value: only null has no properties to read.
  return (
    f !== null &&
    typeof (f as DescriberFailure).query === "string" &&
    typeof (f as DescriberFailure).should_trigger === "boolean"
  );
}
