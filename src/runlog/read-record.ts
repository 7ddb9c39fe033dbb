import type { z } from "zod";
import type { Finding } from "../findings.js";
import { readJsonFile } from "../suite/json-file.js";

/** One JSON record of a run folder, read and checked against its schema. */
export type RecordRead<T> =
  | { state: "ok"; value: T }
  | { state: "missing" }
  /** Unreadable, not JSON, or not of the schema's shape: the finding names the place. */
  | { state: "broken"; finding: Finding };

/** Reads a record of a run folder (timing.json, grading.json, iteration.json, …) through its schema; never throws. */
export async function readRecord<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<RecordRead<z.output<S>>> {
  const result = await readJsonFile(file, schema);
  if (result.value !== undefined) return { state: "ok", value: result.value };
  const finding = result.findings[0];
  if (!finding || finding.code === "file-missing") return { state: "missing" };
  return { state: "broken", finding };
}

/** A record's value when it is there and of its schema's shape; otherwise undefined. */
export async function readRecordIfValid<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<z.output<S> | undefined> {
  const read = await readRecord(file, schema);
  return read.state === "ok" ? read.value : undefined;
}

/** `<name> at <place>: <what is wrong>`, for a broken record. */
export function brokenRecordText(name: string, finding: Finding): string {
  return `${name}${finding.location ? ` at ${finding.location}` : ""}: ${finding.message}`;
}
