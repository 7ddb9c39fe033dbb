import { expect } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { stageWorkspace, type WorkspacePlan } from "../../src/workspace/stage.js";

/** The SkillgymError staging `plan` fails with; the test fails when staging succeeds or throws anything else. */
export async function stageFailure(plan: WorkspacePlan): Promise<SkillgymError> {
  const error = await stageWorkspace(plan).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}
