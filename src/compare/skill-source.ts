import { readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import { SkillgymError } from "../errors.js";
import type { RunSnapshot } from "./read-run.js";

/** What the analyzer is told about the skill behind a run. */
export interface SkillSource {
  /** The skill's folder, or a word saying there was none or it is not known; goes into analysis.json. */
  label: string;
  /** SKILL.md, clipped; undefined when it could not be read. */
  text: string | undefined;
  /** Shown instead of the text when there is none. */
  note: string;
}

const MAX_SKILL_CHARS = 30_000;

/** The skill given on the command line wins; otherwise the one iteration.json recorded for the run's configuration. */
export async function skillSourceOf(run: RunSnapshot, givenPath?: string): Promise<SkillSource> {
  if (givenPath !== undefined) {
    const found = await readSkillMd(givenPath);
    if (!found) {
      throw new SkillgymError("BAD_INPUT", `${path.resolve(givenPath)}: no SKILL.md there`, {
        hint: "pass a skill folder (one holding SKILL.md) or the SKILL.md file itself",
        file: path.resolve(givenPath),
      });
    }
    return { label: found.dir, text: found.text, note: "" };
  }
  if (run.skillPath === null) {
    return {
      label: `none (${run.configuration})`,
      text: undefined,
      note: "This run had no skill: the agent worked on its own.",
    };
  }
  if (run.skillPath === undefined) {
    return {
      label: "unknown",
      text: undefined,
      note: "Which skill this run used is not known; judge from its transcript.",
    };
  }
  const found = await readSkillMd(run.skillPath);
  return found
    ? { label: found.dir, text: found.text, note: "" }
    : {
        label: run.skillPath,
        text: undefined,
        note: `SKILL.md could not be read at ${run.skillPath} (it may have moved); judge from the transcript.`,
      };
}

async function readSkillMd(given: string): Promise<{ dir: string; text: string } | undefined> {
  const resolved = path.resolve(given);
  const info = await stat(resolved).catch(() => undefined);
  if (!info) return undefined;
  const file = info.isDirectory() ? path.join(resolved, "SKILL.md") : resolved;
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const clipped =
    text.length > MAX_SKILL_CHARS
      ? `${text.slice(0, MAX_SKILL_CHARS)}\n… (${text.length - MAX_SKILL_CHARS} more characters)`
      : text;
  return { dir: info.isDirectory() ? resolved : path.dirname(resolved), text: clipped };
}
