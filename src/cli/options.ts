import { isAbsolute, resolve, sep } from "node:path";
import { InvalidArgumentError } from "commander";
import { parseShard, type Shard } from "../shard/index.js";
import { parseByteSize } from "../workspace/index.js";

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number of 1 or more");
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number of 0 or more");
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a number above 0");
  return n;
}

/** `200MB`, `50MB`, `1GB`, `512KB` or a number of bytes (KB, MB and GB are powers of 1024). */
export function byteSize(value: string): number {
  const bytes = parseByteSize(value);
  if (bytes === undefined) throw new InvalidArgumentError("expected a size such as 200MB, 50MB or 1GB");
  return bytes;
}

export function fraction(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("expected a number from 0 to 1");
  return n;
}

/** `--effect-floor`: the smallest lift (a pass-rate difference) worth a verdict. */
export const effectFloorOption = [
  "--effect-floor <x>",
  "the smallest pass-rate lift worth a verdict: helps, hurts, no effect or inconclusive (0..1)",
  fraction,
  0.05,
] as const;

/** `--model a,b`: each model once, none empty; kept as the list's text, split by `modelsOf`. */
export function modelList(value: string): string {
  const names = value.split(",").map((name) => name.trim());
  if (names.some((name) => name === ""))
    throw new InvalidArgumentError(
      `"${value}" names an empty model; separate model names with single commas`,
    );
  const repeated = names.filter((name, i) => names.indexOf(name) !== i);
  if (repeated.length > 0)
    throw new InvalidArgumentError(`${[...new Set(repeated)].join(", ")} named twice; name each model once`);
  return names.join(",");
}

/** The models a `--model` value names, in order; none when it was not given. */
export function modelsOf(flags: { model?: string }): string[] {
  return flags.model ? flags.model.split(",") : [];
}

export function idList(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Ctrl-C once cancels gracefully (finished runs are kept); twice exits at once. */
export function interruptSignal(onFirst: () => void): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(130);
    onFirst();
    controller.abort();
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}

/** `--shard i/n`: 1 ≤ i ≤ n. */
export function shardValue(value: string): Shard {
  try {
    return parseShard(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/**
 * `--agent-bin`: a path with a folder in it (`./claude`, `bin/claude`) is taken from the current folder, as a shell
 * takes it, since the agent starts in its run's workspace; a bare name (`claude-beta`) is looked up on PATH.
 */
export function binaryPath(value: string): string {
  if (isAbsolute(value) || !(value.includes("/") || value.includes(sep))) return value;
  return resolve(value);
}
