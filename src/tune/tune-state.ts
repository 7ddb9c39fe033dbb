import { join } from "node:path";
import { IterationState } from "../contracts/iteration-state.js";
import { SkillgymError } from "../errors.js";
import { writeJson } from "../runlog/atomic-write.js";
import { readJsonFile } from "../suite/json-file.js";
import { historyFromState } from "./history.js";
import { tunePaths } from "./paths.js";

/** Reads a tune's iteration-state.json; a missing or broken file is an error naming the file and the place. */
export async function readTuneState(tuneDir: string): Promise<IterationState> {
  const file = join(tuneDir, tunePaths.state);
  const read = await readJsonFile(file, IterationState);
  if (read.value !== undefined) return read.value;
  const finding = read.findings[0];
  const where = finding?.location ? ` at ${finding.location}` : "";
  throw new SkillgymError("BAD_INPUT", `${file}${where}: ${finding?.message ?? "cannot be read"}`, {
    file,
    hint: "--resume takes a folder written by `skillgym tune`, such as <skill>-workspace/tune-20260115-103000",
  });
}

/** The single source of truth, written atomically after every phase; history.json follows it. */
export async function saveTuneState(tuneDir: string, state: IterationState, now: Date): Promise<void> {
  state.updated_at = now.toISOString();
  await writeJson(join(tuneDir, tunePaths.state), IterationState.parse(state));
  if (state.iterations.some((it) => it.evaluation !== null))
    await writeJson(join(tuneDir, tunePaths.history), historyFromState(state));
}
