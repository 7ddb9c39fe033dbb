import { rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { copyTree, RESERVED_OUTPUT_FILES } from "../workspace/index.js";

/**
 * Chain mode: a copy of the downstream skill's suite whose base overlay (`setup/`) also holds what the upstream
 * skill's run produced, so every downstream run starts with the upstream's outputs in its workspace.
 * Returns the evals path to run (the copied evals file).
 */
export async function stageChainInputs(input: {
  suiteDir: string;
  evalsFile: string;
  upstreamOutputs: string;
  dest: string;
}): Promise<string> {
  await rm(input.dest, { recursive: true, force: true });
  await copyTree(input.suiteDir, input.dest);
  await copyTree(input.upstreamOutputs, join(input.dest, "setup"), {
    skip: (rel) => RESERVED_OUTPUT_FILES.includes(rel),
  });
  return join(input.dest, relative(input.suiteDir, input.evalsFile));
}
