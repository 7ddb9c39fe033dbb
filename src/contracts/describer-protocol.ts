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
  // Stryker disable next-line ConditionalExpression: equivalent, JSON.parse throws on undefined and the catch answers undefined
  if (json === undefined) return undefined;
  try {
    const list: unknown = JSON.parse(json);
    // Stryker disable next-line ConditionalExpression: equivalent, no JSON value but an array has filter, the catch answers undefined
    if (!Array.isArray(list)) return undefined;
    return list.filter(
      (f): f is DescriberFailure =>
        // Stryker disable next-line ConditionalExpression: equivalent, what is not an object has no query of its own
        typeof f === "object" &&
        f !== null &&
        typeof (f as DescriberFailure).query === "string" &&
        typeof (f as DescriberFailure).should_trigger === "boolean",
    );
  } catch {}
  return undefined;
}
