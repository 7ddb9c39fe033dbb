import { join } from "node:path";
import { relativeInside } from "../tree/paths.js";

// Where everything of one tune lives, relative to its folder `<workspace>/tune-<timestamp>/` (POSIX separators).
export const tunePaths = {
  state: "iteration-state.json",
  history: "history.json",
  report: "final-report.md",
  original: (name: string) => `original/${name}`,
  scenario: (name: string) => `scenario/${name}`,
  iteration: (round: number) => `iterations/iteration-${round}`,
  snapshot: (round: number) => `iterations/iteration-${round}/skill-snapshot`,
  execution: (round: number, name: string) => `iterations/iteration-${round}/execution/${name}`,
  chainInputs: (round: number, name: string) => `iterations/iteration-${round}/chain-inputs/${name}`,
  evaluation: (round: number) => `iterations/iteration-${round}/evaluation.json`,
  rawAnswer: (round: number, name: string) => `iterations/iteration-${round}/evaluator-answer-${name}.txt`,
  improver: (round: number) => `iterations/iteration-${round}/improve`,
  improved: (round: number, name: string) => `iterations/iteration-${round}/improved/${name}`,
  changesName: (round: number) => `iteration-${round}-changes.md`,
  changes: (round: number) => `iterations/iteration-${round}/iteration-${round}-changes.md`,
} as const;

export function inTune(tuneDir: string, relative: string): string {
  return join(tuneDir, ...relative.split("/"));
}

/** A path inside the tune folder as stored in its files: relative, with `/`. */
export function tuneRelative(tuneDir: string, absolute: string): string {
  return relativeInside(tuneDir, absolute) ?? absolute;
}
